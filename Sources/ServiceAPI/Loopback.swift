/// Whether a host names this machine: `localhost`, 127.0.0.0/8 or ::1 (brackets allowed).
/// Where plain HTTP is allowed, `--dev` may listen, and PostgreSQL may go without TLS.
public enum Loopback {
    public static func contains(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }
}
