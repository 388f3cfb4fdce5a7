import Foundation
import Synchronization

/// A PostgreSQL server for the tests, started once per test process from Debian's
/// `postgresql` package (`.ci/run` installs it): `initdb` as the postgres user, `pg_ctl`
/// on a free loopback port with `fsync=off`, stopped when the process exits. Each test
/// gets a database of its own; a test that stops the server starts one of its own.
public final class ThrowawayPostgres: Sendable {
    public let port: Int
    public let folder: String
    private let databases = Mutex(0)
    private let asPostgres: Bool
    private let crashSafe: Bool

    /// The one server the tests share, or why there is none (PostgreSQL not installed).
    public static let shared: Result<ThrowawayPostgres, Failure> = {
        do { return .success(try start()) } catch { return .failure(Failure(description: "\(error)")) }
    }()

    /// `shared` for an async test: started (the first time) off the cooperative pool.
    public static func sharedServer() async throws -> ThrowawayPostgres {
        try await offThePool { try shared.get() }
    }

    /// A server of this test's own, to stop and start. Its commits are written before
    /// they are answered (`synchronous_commit`), so they survive the server being killed.
    public static func own() throws -> ThrowawayPostgres { try start(crashSafe: true) }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private init(port: Int, folder: String, asPostgres: Bool, crashSafe: Bool) {
        self.port = port
        self.folder = folder
        self.asPostgres = asPostgres
        self.crashSafe = crashSafe
    }

    private var data: String { folder + "/data" }

    /// Stops the server at once, as a crash or a lost database host would.
    public func stop() throws {
        try Self.run(Self.tool("pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], asPostgres: asPostgres)
    }

    /// Starts it again on the same port, with what it had committed.
    public func start() throws {
        // fsync=off: nothing here outlives the machine; the kernel has every write.
        let options =
            "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300"
            + (crashSafe ? "" : " -c synchronous_commit=off")
        try Self.run(Self.tool("pg_ctl"), ["-D", data, "-o", options, "-l", folder + "/log", "-w", "start"], asPostgres: asPostgres)
    }

    /// One SQL statement's rows, unaligned, one per line.
    public func query(_ sql: String, in database: String) throws -> String {
        try Self.run(Self.tool("psql"), ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", database, "-At", "-c", sql])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new, empty database: its URL.
    public func newDatabase() throws -> String {
        url(try newDatabaseName())
    }

    /// `newDatabase` for an async test: psql waited for off the cooperative pool.
    public func newDatabase() async throws -> String {
        try await offThePool { try self.newDatabase() }
    }

    /// A new, empty database: its name.
    public func newDatabaseName() throws -> String {
        let name = databases.withLock { count in
            count += 1; return "onboard_test_\(count)"
        }
        _ = try query("CREATE DATABASE \(name)", in: "postgres")
        return name
    }

    public func url(_ database: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    private static func start(crashSafe: Bool = false) throws -> ThrowawayPostgres {
        let folder = NSTemporaryDirectory() + "onboard-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let asPostgres = getuid() == 0
        if asPostgres { try run("/usr/bin/chown", ["postgres", folder]) }
        let data = folder + "/data"
        try run(tool("initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"], asPostgres: asPostgres)
        let server = ThrowawayPostgres(port: freePort(), folder: folder, asPostgres: asPostgres, crashSafe: crashSafe)
        try server.start()
        removeAtExit(folder: folder, asPostgres: asPostgres)
        return server
    }

    /// Debian keeps the server's programs under /usr/lib/postgresql/VERSION/bin.
    static func tool(_ name: String) throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: >)
        where FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/\(name)") {
            return "/usr/lib/postgresql/\(version)/bin/\(name)"
        }
        for folder in ["/usr/local/bin", "/usr/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        throw Failure(description: "\(name) not found: install Debian's postgresql package (.ci/run does)")
    }

    /// Runs a program to its end (as the postgres user when we are root: PostgreSQL
    /// refuses to run as root); its output, or an error that carries it.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], asPostgres: Bool = false) throws -> String {
        let argv = asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments : [program] + arguments
        let (status, output) = Subprocess.run(argv[0], Array(argv.dropFirst()))
        guard status == 0 else { throw Failure(description: "\((program as NSString).lastPathComponent) failed (\(status)): \(output)") }
        return output
    }

    public static func freePort() -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Every server started is stopped, and its folder removed, when the test process
    /// exits: a cluster is hundreds of megabytes, and a machine running the suite day
    /// after day would otherwise fill its disk.
    private static func removeAtExit(folder: String, asPostgres: Bool) {
        let first = running.withLock { servers in
            servers.append((folder, asPostgres))
            return servers.count == 1
        }
        guard first else { return }
        atexit {
            for (folder, asPostgres) in ThrowawayPostgres.running.withLock({ $0 }) {
                _ = try? ThrowawayPostgres.run(
                    try ThrowawayPostgres.tool("pg_ctl"), ["-D", folder + "/data", "-m", "immediate", "-w", "stop"],
                    asPostgres: asPostgres)
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
    }

    private static let running = Mutex<[(String, Bool)]>([])
}
