import Foundation

/// `--listen HOST:PORT` of a demo server (an IPv6 host in brackets: `[::1]:2222`).
public struct ListenAddress: Sendable, Equatable {
    public var host: String
    public var port: Int

    /// nil when `text` is not HOST:PORT with a port from 0 to 65535.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            return nil
        }
        let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard !host.isEmpty else { return nil }
        (self.host, self.port) = (host, port)
    }

    /// Connections a demo server lets wait to be accepted. Visitors come in bursts (a room
    /// told the address at once), and one the queue has no room for is retried by its
    /// client a second later, then three; the kernel caps this at `net.core.somaxconn`.
    public static let backlog = 4096

    /// What to tell people to connect to: a wildcard address stands for this machine's name.
    public static func shown(_ host: String) -> String { host == "0.0.0.0" || host == "::" ? "HOST" : host }
}
