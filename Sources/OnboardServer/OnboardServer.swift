import ClientAddress
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import InputRules
import Logging
import NIOCore
import NIOSSL
import OnboardService
import PostgresNIO
import PostgresStore
import Prometheus
import SQLiteStore
import ServiceAPI
import ServiceLifecycle

/// How to run the server.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests); the chosen one is reported by `onReady`.
    public var port = 8080
    public var databasePath: String
    /// A PostgreSQL database shared by several instances, in place of the SQLite file.
    public var postgres: PostgresLocation?
    /// QA endpoints under `/api/v1/dev/`: outbox, reset, clock, faults. Off by default.
    public var dev = false
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`); none: the
    /// TCP peer is the client.
    public var trustedProxies: [AddressBlock] = []
    public var settings = ServiceSettings()
    /// Social sign-in's providers (`--identity-providers`); with `--dev` and none, all
    /// three through the development provider.
    public var identityProviders: [String: IdentityProvider] = [:]
    /// The operator's token for `/api/v1/admin` (nil: the reports answer no one).
    public var adminToken: String?
    /// Where `/metrics` is served (its own listener), with the registry `ServerMetrics`
    /// bootstrapped; nil: no metrics listener.
    public var metrics: (host: String, port: Int, registry: PrometheusCollectorRegistry)?
    /// A connection that sends nothing for this long is closed, so a request whose body
    /// never comes (a slow-loris) does not hold it for ever. Longer than clients keep
    /// idle connections (AsyncHTTPClient 60 s), as nginx's 75 s default.
    public var idleTimeout: TimeAmount = .seconds(75)
    /// How long start-up waits for PostgreSQL before giving up (exit 69, said in one
    /// line): the store's own deadline for a connection, as a request waits while running.
    public var databaseWait: Duration = .seconds(5)
    /// `--public-url`: the address handed out (device page, QR code, return addresses)
    /// instead of the request's Host, which another host is then refused.
    public var publicAddress: PublicAddress?

    public init(databasePath: String) {
        self.databasePath = databasePath
    }
}

/// A database `onboard-server` cannot use at start: said in one line, exit 69.
public struct DatabaseUnavailable: Error, CustomStringConvertible {
    public var description: String

    /// What the operator's terminal shows: a database's own words (a name it was given)
    /// made inert first.
    init(description: String) {
        self.description = description.madeInert()
    }
}

/// `onboard-server`: the service's behaviour behind HTTP(S), over SQLite or PostgreSQL,
/// with graceful shutdown on SIGTERM and SIGINT (in-flight requests finish).
public enum OnboardServer {
    /// The application, ready to `runService()`; `onReady` gets the bound port.
    public static func application(
        _ configuration: ServerConfiguration, logger: Logger = Logger(label: "onboard-server"),
        onReady: @escaping @Sendable (Int) async -> Void = { _ in }, onMetricsReady: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let clock = AdjustableClock()
        var providers = configuration.identityProviders
        if configuration.dev, providers.isEmpty {
            for name in OnboardService.socialProviders { providers[name] = .development }
        }
        var settings = configuration.settings
        settings.keepsOutbox = configuration.dev
        settings.mockIdentityProvider = configuration.dev
        settings.brokeredProviders = Set(providers.keys)
        let service = try await openService(configuration, settings: settings, clock: clock, logger: logger)
        let routes = Routes(
            service: service, clock: clock, dev: configuration.dev, openAPI: openAPIDocument,
            scheme: configuration.tlsCertificate == nil ? "http" : "https", identityProviders: providers,
            adminToken: configuration.adminToken,
            publicAddress: configuration.publicAddress)
        let router = Router(context: APIContext.self)
        // Middleware wraps only the routes added after it, so the table of methods is
        // read from the same routes on a scratch router first.
        // Outermost, so the line says the status the client got, errors included.
        if !configuration.trustedProxies.isEmpty {
            router.add(middleware: ClientAddressMiddleware(proxies: TrustedProxies(blocks: configuration.trustedProxies)))
        }
        let methods = RouteMethods(routes)
        router.add(middleware: AccessLogMiddleware(routes: methods))
        router.add(middleware: RequestMetricsMiddleware(routes: methods))
        router.add(middleware: SecurityHeadersMiddleware(https: configuration.tlsCertificate != nil))
        router.add(middleware: ErrorEnvelopeMiddleware(methods: methods))
        routes.registerProbes(on: router)
        // After the probes: a load balancer may ask them by address.
        if let address = configuration.publicAddress { router.add(middleware: PublicAddressMiddleware(address: address)) }
        if configuration.dev {
            router.add(middleware: SharedQAMiddleware(clock: clock, service: service))
        }
        routes.register(on: router)
        let http1 = HTTP1Channel.Configuration(idleTimeout: configuration.idleTimeout)
        let server: HTTPServerBuilder
        if let certificate = configuration.tlsCertificate, let key = configuration.tlsKey {
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            // Mozilla's "intermediate" profile: TLS 1.2 and 1.3 only, and for 1.2 only
            // forward-secret AEAD suites (no static RSA key exchange, no CBC).
            tls.minimumTLSVersion = .tlsv12
            tls.cipherSuites = Self.intermediateCipherSuites
            server = try .tls(.http1(configuration: http1), tlsConfiguration: tls)
        } else {
            server = .http1(configuration: http1)
        }
        let metrics: [any Service] =
            configuration.metrics.map { metrics in
                let application = ServerMetrics.application(
                    registry: metrics.registry, host: metrics.host, port: metrics.port, logger: logger, onReady: onMetricsReady)
                return [ServerMetrics.Listener(application: application, address: "\(metrics.host):\(metrics.port)", logger: logger)]
            } ?? []
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "onboard-server"),
            services: metrics,
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    /// Connects (the client's pool runs for the life of the process) and migrates, under
    /// an advisory lock so instances started together migrate once.
    /// TLS 1.2's suites in Mozilla's intermediate profile (BoringSSL has no DHE ones);
    /// TLS 1.3's are fixed by the library and all forward-secret AEAD.
    static let intermediateCipherSuites = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    /// The service over the configured store (PostgreSQL, or the SQLite file), migrated:
    /// the server's, and `onboard-server funnel`'s reading of the same data.
    public static func openService(
        _ configuration: ServerConfiguration, settings: ServiceSettings, clock: any ServiceClock = SystemClock(), logger: Logger
    ) async throws -> OnboardService {
        if let location = configuration.postgres {
            let store = try await openPostgres(location, wait: configuration.databaseWait, logger: logger)
            return try OnboardService(
                store: store, keys: try await ServiceKeys.stored(in: store), clock: clock, settings: settings, securityLog: logger)
        }
        do {
            return try OnboardService(
                database: ServiceDatabase.open(path: configuration.databasePath), clock: clock, settings: settings, securityLog: logger)
        } catch {
            let folder = (configuration.databasePath as NSString).deletingLastPathComponent
            let reason =
                !folder.isEmpty && !FileManager.default.fileExists(atPath: folder)
                ? "its folder \(folder) does not exist" : Self.reason(error)
            throw DatabaseUnavailable(description: "onboard-server: cannot use the database at \(configuration.databasePath): \(reason)")
        }
    }

    static func openPostgres(_ location: PostgresLocation, wait databaseWait: Duration, logger: Logger) async throws -> PostgresStore {
        // The pool's own retries are not news: only its errors reach the log.
        var background = logger
        background.logLevel = max(logger.logLevel, .error)
        let client = PostgresClient(configuration: try location.clientConfiguration(), backgroundLogger: background)
        Task { await client.run() }
        let store = PostgresStore(client: client, logger: logger)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // The store gives one request 5 s for a connection; start-up waits
                    // `databaseWait` (a busy machine, a database still starting).
                    while true {
                        do {
                            return try await store.migrate()
                        } catch let error as ServiceError where error.code == .network {
                            try await Task.sleep(for: .milliseconds(250))
                        }
                    }
                }
                group.addTask {
                    try await Task.sleep(for: databaseWait)
                    throw DatabaseUnavailable(description: "no answer within \(databaseWait)")
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch {
            // The pool only says it gave up; one direct connection says why.
            let reason = await location.whyUnusable(logger: background) ?? Self.reason(error)
            throw DatabaseUnavailable(description: "onboard-server: cannot use the database at \(location): \(reason)")
        }
        return store
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError, let message = error.serverInfo?[.message] { return message }
        if let error = error as? ServiceError { return error.message }
        return "\(error)"
    }

    /// Every route the server answers, as `METHOD /path` under /api/v1: what the OpenAPI
    /// document must describe.
    public static func routeList(dev: Bool) throws -> [String] {
        let router = Router(context: APIContext.self)
        let service = try OnboardService(database: ServiceDatabase.inMemory())
        Routes(service: service, clock: AdjustableClock(), dev: dev, openAPI: Data()).register(on: router)
        // The alias Routes names for the trie is the documented /content/{kind}.
        // The API's routes (the device sign-in's HTML page is not part of it).
        let api = router.routes.filter { $0.path.description.hasPrefix(Endpoint.root + "/") }
        return api.filter { !$0.path.description.hasSuffix("/" + Routes.contentShadowedByMotivation) }.map { route in
            // Hummingbird writes parameters as :name, OpenAPI as {name}.
            let path = route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            return "\(route.method.rawValue) /" + path.dropFirst(2).joined(separator: "/")
        }
    }

    /// The API description, served at `/api/v1/openapi.yaml` and kept in the repo
    /// (`openapi.yaml`); compiled in (`CompiledOpenAPI`), since an installed server has no
    /// resource bundle beside it.
    public static var openAPIDocument: Data {
        Data(CompiledOpenAPI.text.utf8)
    }
}
