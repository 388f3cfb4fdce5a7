import Foundation

/// What a demo session's program sees: the server's environment, this session's TERM, a
/// UTF-8 locale, and nothing that pins the size. As sshd does, `SSH_CONNECTION` says the
/// person is elsewhere (over SSH or in a browser). Nothing that reaches the desktop of
/// whoever runs the server goes along: its display (no browser is opened on this machine
/// for a visitor; a device sign-in shows its code and QR code instead), its session bus
/// and the runtime folder that holds it, its SSH and GPG agents. A visitor's secrets stay
/// in the session's own folder, thrown away with it: a demo given from a laptop put them
/// in the presenter's keyring, an item per visitor, none ever removed.
public enum SessionEnvironment {
    static let dropped = [
        "LINES", "COLUMNS", "TMUX", "TERM", "NO_COLOR", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS",
        "XDG_RUNTIME_DIR", "SSH_AUTH_SOCK", "GPG_AGENT_INFO",
    ]

    public static func make(
        term: String, connection: String, extra: [String: String] = [:],
        server: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String: String] {
        var environment = server.filter { !dropped.contains($0.key) }
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
