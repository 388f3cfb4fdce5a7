import Foundation
import NIOSSL
import PostgresNIO
import ServiceAPI

/// Where the database is, from a `postgres://user:password@host:port/database` URL
/// (`?sslmode=require|prefer|disable`, `&sslrootcert=FILE` to trust a CA). Without
/// `sslmode`, a database on another host requires TLS (`prefer` would fall back to
/// plain text without a word); one on this machine prefers it.
public struct PostgresLocation: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String?
    public var sslMode: String
    public var rootCertificate: String?

    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    public init(url text: String) throws {
        guard let url = URL(string: text), ["postgres", "postgresql"].contains(url.scheme?.lowercased() ?? ""), let host = url.host,
            !host.isEmpty
        else {
            throw Invalid(description: "'\(Self.hidingPassword(text))' is not a database address like postgres://user@host:5432/onboard")
        }
        self.host = host
        port = url.port ?? 5432
        username = url.user?.removingPercentEncoding ?? "postgres"
        password = url.password?.removingPercentEncoding
        let path = url.path.drop { $0 == "/" }
        database = path.isEmpty ? nil : String(path)
        let query = URLComponents(string: text)?.queryItems ?? []
        sslMode = query.first { $0.name == "sslmode" }?.value ?? (Self.isThisMachine(host) ? "prefer" : "require")
        rootCertificate = query.first { $0.name == "sslrootcert" }?.value
        guard ["require", "prefer", "disable"].contains(sslMode) else {
            throw Invalid(description: "sslmode must be require, prefer or disable, not '\(sslMode)'")
        }
    }

    /// `text` with the password of its `user:password@` part replaced, for an error that
    /// quotes an address it could not read (it goes to a terminal, a log, the journal).
    static func hidingPassword(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@"),
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        else { return text }
        return text.replacingCharacters(in: text.index(after: colon)..<at, with: "****")
    }

    /// Loopback addresses and a Unix socket folder.
    static func isThisMachine(_ host: String) -> Bool {
        Loopback.contains(host) || host.hasPrefix("/")
    }

    /// `host:port/database`, never the password.
    public var description: String { "\(host):\(port)/\(database ?? username)" }

    /// The client TLS settings: the system's roots, or `sslrootcert`'s.
    private func tlsConfiguration() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let rootCertificate {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificate))
        }
        return tls
    }

    public func clientConfiguration() throws -> PostgresClient.Configuration {
        let tls = try tlsConfiguration()
        let mode: PostgresClient.Configuration.TLS =
            switch sslMode {
            case "require": .require(tls)
            case "disable": .disable
            default: .prefer(tls)
            }
        return PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: mode)
    }

    /// Why no connection can be made here, in PostgreSQL's own words where it gave any
    /// ("database "x" does not exist", a refused password, TLS it will not do), found by
    /// one direct connection: the pool only says it gave up. nil when one can be made.
    public func whyUnusable(logger: Logger) async -> String? {
        let mode: PostgresConnection.Configuration.TLS
        do {
            let tls = try tlsConfiguration()
            mode =
                switch sslMode {
                case "require": .require(try NIOSSLContext(configuration: tls))
                case "disable": .disable
                default: .prefer(try NIOSSLContext(configuration: tls))
                }
        } catch {
            return "its TLS settings cannot be used (\(error))"
        }
        let configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try? await connection.close()
            return nil
        } catch let error as PSQLError {
            if let message = error.serverInfo?[.message] { return "PostgreSQL says: \(message)" }
            return "no PostgreSQL answers at \(host):\(port) (\(Self.plainWords(error.underlying.map { "\($0)" } ?? "\(error.code)")))"
        } catch {
            return "no PostgreSQL answers at \(host):\(port) (\(Self.plainWords("\(error)")))"
        }
    }

    /// A connection failure as a person says it; NIO's nested description otherwise.
    static func plainWords(_ failure: String) -> String {
        let known = [
            ("Connection refused", "nothing listens on that port"), ("No route to host", "no network route to that host"),
            ("Network is unreachable", "no network route to that host"), ("imed out", "it did not answer in time"),
            ("NXDOMAIN", "that host name is unknown"), ("resolve", "that host name is unknown"),
        ]
        return known.first { failure.contains($0.0) }?.1 ?? failure
    }
}
