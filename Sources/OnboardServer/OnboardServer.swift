import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import OnboardService
import ServiceAPI

/// How to run the server.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests); the chosen one is reported by `onReady`.
    public var port = 8080
    public var databasePath: String
    /// QA endpoints under `/api/v1/dev/`: outbox, reset, clock, faults. Off by default.
    public var dev = false
    public var tlsCertificate: String?
    public var tlsKey: String?
    public var settings = ServiceSettings()

    public init(databasePath: String) {
        self.databasePath = databasePath
    }
}

/// `onboard-server`: the service's behaviour behind HTTP(S), over SQLite, with graceful
/// shutdown on SIGTERM and SIGINT (in-flight requests finish).
public enum OnboardServer {
    /// The application, ready to `runService()`; `onReady` gets the bound port.
    public static func application(
        _ configuration: ServerConfiguration, logger: Logger = Logger(label: "onboard-server"),
        onReady: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let clock = AdjustableClock()
        var settings = configuration.settings
        settings.keepsOutbox = configuration.dev
        let service = try OnboardService(database: ServiceDatabase.open(path: configuration.databasePath), clock: clock, settings: settings)
        let faults = ServerFaults()
        let routes = Routes(service: service, clock: clock, faults: faults, dev: configuration.dev, openAPI: openAPIDocument)
        let router = Router(context: APIContext.self)
        // Middleware wraps only the routes added after it, so the table of methods is
        // read from the same routes on a scratch router first.
        router.add(middleware: ErrorEnvelopeMiddleware(methods: RouteMethods(routes)))
        router.add(middleware: LogRequestsMiddleware(.info))
        if configuration.dev { router.add(middleware: FaultMiddleware(faults: faults)) }
        routes.register(on: router)
        let server: HTTPServerBuilder
        if let certificate = configuration.tlsCertificate, let key = configuration.tlsKey {
            let tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            server = try .tls(.http1(), tlsConfiguration: tls)
        } else {
            server = .http1()
        }
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "onboard-server"),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    /// Every route the server answers, as `METHOD /path` under /api/v1: what the OpenAPI
    /// document must describe.
    public static func routeList(dev: Bool) throws -> [String] {
        let router = Router(context: APIContext.self)
        let service = try OnboardService(database: ServiceDatabase.inMemory())
        Routes(service: service, clock: AdjustableClock(), faults: ServerFaults(), dev: dev, openAPI: Data()).register(on: router)
        return router.routes.map { route in
            // Hummingbird writes parameters as :name, OpenAPI as {name}.
            let path = route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            return "\(route.method.rawValue) /" + path.dropFirst(2).joined(separator: "/")
        }
    }

    /// The API description, served at `/api/v1/openapi.yaml` and kept in the repo.
    public static var openAPIDocument: Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
              let data = try? Data(contentsOf: url) else { return Data() }
        return data
    }
}
