/// Whether a host names this machine: exactly `localhost`, an IPv4 literal in
/// 127.0.0.0/8, or ::1 (brackets allowed). Where plain HTTP is allowed, `--dev` may
/// listen, and PostgreSQL may go without TLS. A name that merely starts with `127.`
/// (`127.0.0.1.attacker.example`) is someone else's.
public enum Loopback {
    public static func contains(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" { return true }
        if bare == "::1" || bare.lowercased() == "0:0:0:0:0:0:0:1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && (Int(part) ?? 256) <= 255
        }
    }
}
