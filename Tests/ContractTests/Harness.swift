import EmbeddedMock
import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import OnboardServer
import OnboardService
import PostgresNIO
import PostgresStore
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient
import TestSupport

/// Settings both transports run with in the contract tests: fast hashing, low limits.
let contractSettings: ServiceSettings = {
    var settings = ServiceSettings()
    settings.bcryptCost = 4
    settings.loginFailuresPerAccount = RateLimit(limit: 3, window: 900)
    return settings
}()

func temporaryPath(_ name: String) -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-contract-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent(name).path
}

/// A real onboard-server on a free loopback port, in this process.
final class RunningServer: Sendable {
    let port: Int
    private let task: Task<Void, any Error>

    init(port: Int, task: Task<Void, any Error>) {
        self.port = port
        self.task = task
    }

    /// `postgres`: on a database of its own in the throwaway PostgreSQL, not a SQLite file.
    static func start(
        dev: Bool = true, settings: ServiceSettings = contractSettings, tls: (certificate: String, key: String)? = nil,
        postgres: Bool = false,
        idleTimeout: TimeAmount? = nil, databasePath: String = temporaryPath("server.sqlite"),
        identityProviders: [String: IdentityProvider] = [:], port: Int = 0, adminToken: String? = nil, publicURL: String? = nil
    ) async throws -> RunningServer {
        var configuration = ServerConfiguration(databasePath: databasePath)
        configuration.adminToken = adminToken
        configuration.publicAddress = publicURL.flatMap(PublicAddress.init)
        configuration.identityProviders = identityProviders
        if let idleTimeout { configuration.idleTimeout = idleTimeout }
        // Generous, as the transport's timeout below: a dozen servers of this suite migrate
        // their databases at once beside the other suites (once, on a busy 2-core machine,
        // all of them passed onboard-server's own 10 s).
        configuration.databaseWait = .seconds(60)
        if postgres { configuration.postgres = try PostgresLocation(url: try await ThrowawayPostgres.sharedServer().newDatabase()) }
        configuration.port = port
        configuration.dev = dev
        configuration.settings = settings
        configuration.tlsCertificate = tls?.certificate
        configuration.tlsKey = tls?.key
        var logger = Logger(label: "contract-server")
        logger.logLevel = .critical
        return try await run { onReady in try await OnboardServer.application(configuration, logger: logger, onReady: onReady) }
    }

    /// Runs an application made with the given readiness callback and waits for its port.
    static func run<App: ApplicationProtocol>(
        _ make: (@escaping @Sendable (Int) async -> Void) async throws -> App
    ) async throws -> RunningServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = try await make { port in continuation.yield(port) }
        // A server that ends before it is ready (its port taken) ends the wait too: the
        // caller hears why, where a wait on the port alone would hang.
        let task = Task {
            defer { continuation.finish() }
            try await application.runService(gracefulShutdownSignals: [])
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            let reason = if case .failure(let error) = await task.result { "\(error)" } else { "it stopped" }
            throw ServiceError(.network, "the server did not start: \(reason)")
        }
        return RunningServer(port: port, task: task)
    }

    var base: String { "http://127.0.0.1:\(port)" }

    func stop() {
        task.cancel()
    }
}

/// One transport under test, with the QA control the contract needs: moving the
/// service's clock.
struct Subject {
    let service: any AuthService
    let advanceClock: @Sendable (Int64) async throws -> Void
    let server: RunningServer?

    static func make(_ kind: String) async throws -> Subject {
        switch kind {
        case "in-process-postgres":
            let clock = ManualClock()
            let store = try await PostgresSubject.store()
            let service = try OnboardService(
                store: store, keys: try await ServiceKeys.stored(in: store), clock: clock, settings: contractSettings)
            return Subject(service: InProcessTransport(service: service), advanceClock: { clock.offsetSeconds += $0 }, server: nil)
        case "in-process":
            // As a state folder's embedded mock runs: its personal columns sealed.
            let clock = ManualClock()
            let key = SymmetricKey(size: .bits256)
            let database = try ServiceDatabase.open(path: temporaryPath("mock.sqlite"), sealer: ColumnSealer { key })
            let service = try OnboardService(database: database, clock: clock, settings: contractSettings)
            return Subject(service: InProcessTransport(service: service), advanceClock: { clock.offsetSeconds += $0 }, server: nil)
        default:
            let server = try await RunningServer.start(postgres: kind == "http-postgres")
            // Generous: many servers run at once in this suite; timeouts are tested elsewhere.
            let transport = try HTTPTransport(base: server.base, timeout: .seconds(30))
            let offset = Offset()
            return Subject(
                service: transport,
                advanceClock: { seconds in
                    try await transport.setClockOffset(seconds: offset.add(seconds))
                }, server: server)
        }
    }
}

/// An in-process service's clock: now when the subject is made, and moved only by the
/// test (`advanceClock`), so "sooner than the interval" never depends on how fast a busy
/// machine runs the test (the device poll's slow-down once flaked under a full suite).
final class ManualClock: ServiceClock {
    private let start = SystemClock().now()
    private let offset = Mutex<Int64>(0)

    var offsetSeconds: Int64 {
        get { offset.withLock { $0 } }
        set { offset.withLock { $0 = newValue } }
    }

    func now() -> Int64 { start + offsetSeconds }
}

/// The server's clock offset as the test has set it.
final class Offset: Sendable {
    private let value = Mutex<Int64>(0)
    func add(_ seconds: Int64) -> Int64 {
        value.withLock {
            $0 += seconds; return $0
        }
    }
}

import Synchronization

/// PostgreSQL subjects: a client per database, its run loop kept going for the test
/// process (each test has a database of its own).
enum PostgresSubject {
    static func store() async throws -> PostgresStore {
        try await store(url: try await ThrowawayPostgres.sharedServer().newDatabase())
    }

    /// A store on the database at `url`, migrated; `maximumConnections` for its pool when
    /// not the default.
    static func store(url: String, maximumConnections: Int? = nil, planLifetime: Duration = .seconds(1)) async throws -> PostgresStore {
        var configuration = try PostgresLocation(url: url).clientConfiguration()
        if let maximumConnections { configuration.options.maximumConnections = maximumConnections }
        let client = PostgresClient(configuration: configuration)
        Task { await client.run() }
        let store = PostgresStore(client: client, planLifetime: planLifetime)
        // Generous, as the servers' databaseWait: a dozen pools open at once beside the
        // other suites on a busy 2-core machine, past the store's 5 s wait for a connection.
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            do {
                try await store.migrate()
                return store
            } catch let error as ServiceError where error.code == .network && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }
}
