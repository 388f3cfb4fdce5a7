import Foundation
import Synchronization

/// A PostgreSQL server for the tests, started once per test process from Debian's
/// `postgresql` package (`.ci/run` installs it): `initdb` as the postgres user, `pg_ctl`
/// on a free loopback port with `fsync=off`, stopped when the process exits. Each test
/// gets a database of its own.
public final class ThrowawayPostgres: Sendable {
    public let port: Int
    public let folder: String
    private let databases = Mutex(0)

    /// The one server, or why there is none (PostgreSQL not installed).
    public static let shared: Result<ThrowawayPostgres, Failure> = {
        do { return .success(try start()) } catch { return .failure(Failure(description: "\(error)")) }
    }()

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private init(port: Int, folder: String) {
        self.port = port
        self.folder = folder
    }

    /// A new, empty database: its URL.
    public func newDatabase() throws -> String {
        let name = databases.withLock { count in count += 1; return "onboard_test_\(count)" }
        try Self.run(Self.tool("psql"), ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-q", "-c", "CREATE DATABASE \(name)"])
        return url(name)
    }

    public func url(_ database: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    private static func start() throws -> ThrowawayPostgres {
        let folder = NSTemporaryDirectory() + "onboard-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let asPostgres = getuid() == 0
        if asPostgres { try run("/usr/bin/chown", ["postgres", folder]) }
        let data = folder + "/data"
        try run(tool("initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"], asPostgres: asPostgres)
        let port = freePort()
        let options = "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        try run(tool("pg_ctl"), ["-D", data, "-o", options, "-l", folder + "/log", "-w", "start"], asPostgres: asPostgres)
        stopAtExit(data: data, asPostgres: asPostgres)
        return ThrowawayPostgres(port: port, folder: folder)
    }

    /// Debian keeps the server's programs under /usr/lib/postgresql/VERSION/bin.
    static func tool(_ name: String) throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: >) where FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/\(name)") {
            return "/usr/lib/postgresql/\(version)/bin/\(name)"
        }
        for folder in ["/usr/local/bin", "/usr/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        throw Failure(description: "\(name) not found: install Debian's postgresql package (.ci/run does)")
    }

    /// Runs a program to its end (posix_spawn and waitpid: the server pg_ctl leaves
    /// running must not keep us waiting), its output into a file for the error message.
    static func run(_ program: String, _ arguments: [String], asPostgres: Bool = false) throws {
        let argv = asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments : [program] + arguments
        let outputPath = NSTemporaryDirectory() + "onboard-pg-output-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw Failure(description: "cannot start \(argv[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard exited == 0 else {
            let said = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw Failure(description: "\((program as NSString).lastPathComponent) failed (\(exited)): \(said)")
        }
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
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func stopAtExit(data: String, asPostgres: Bool) {
        stopCommand.withLock { $0 = (data, asPostgres) }
        atexit {
            guard let (data, asPostgres) = ThrowawayPostgres.stopCommand.withLock({ $0 }) else { return }
            try? ThrowawayPostgres.run(try ThrowawayPostgres.tool("pg_ctl"), ["-D", data, "-m", "immediate", "stop"], asPostgres: asPostgres)
        }
    }

    private static let stopCommand = Mutex<(String, Bool)?>(nil)
}
