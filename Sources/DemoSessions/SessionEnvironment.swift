import Foundation

/// What a demo session's program sees: the server's environment, this session's TERM, a
/// UTF-8 locale, and nothing that pins the size. As sshd does, `SSH_CONNECTION` says the
/// person is elsewhere (over SSH or in a browser), and the server's display is not
/// theirs: no browser is opened on this machine for them (a device sign-in shows its
/// code and QR code instead). Nor is its desktop's session bus: a visitor's secrets stay
/// in the session's own folder, thrown away with it, never in the keyring of whoever runs
/// the server (a demo given from a laptop would have filled theirs, an item per visitor,
/// none ever removed).
public enum SessionEnvironment {
    public static func make(term: String, connection: String, extra: [String: String] = [:]) -> [String: String] {
        let dropped = ["LINES", "COLUMNS", "TMUX", "TERM", "NO_COLOR", "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"]
        var environment = ProcessInfo.processInfo.environment.filter { !dropped.contains($0.key) }
        environment["ONBOARD_SECRET_STORE"] = "file"
        environment["SSH_CONNECTION"] = connection
        environment["TERM"] = term
        if !(environment["LANG"] ?? "").uppercased().contains("UTF-8") { environment["LANG"] = "C.UTF-8" }
        environment["LC_ALL"] = nil
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// sshd's `SSH_CONNECTION`: "client-address client-port server-address server-port".
    public static func connection(client: (address: String?, port: Int?), server: (address: String?, port: Int?)) -> String {
        [client, server].map { "\($0.address ?? "unknown") \($0.port ?? 0)" }.joined(separator: " ")
    }
}
