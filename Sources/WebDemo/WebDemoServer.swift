import ClientAddress
import DemoSessions
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// `onboard serve-web`: a page that draws a terminal (xterm.js), and for each visitor
/// their own Onboard on a pseudo-terminal, joined to the page over a WebSocket, as
/// `serve-ssh` gives each SSH connection one. Nothing else is reachable: no shell, no
/// file but the page's own.
public struct WebDemoServer: Sendable {
    public struct Settings: Sendable {
        public var host = "127.0.0.1"
        public var port = 8022
        public var maxSessions = 50
        /// New sessions one address may start in ten minutes.
        public var perAddress = 10
        /// How long a session waits for its page to come back after the connection dropped.
        public var grace = Duration.seconds(60)
        /// How long a session lives with no key pressed.
        public var idle = Duration.seconds(15 * 60)
        public var tlsCertificate: String?
        public var tlsKey: String?
        /// Reverse proxies (nginx) whose `X-Forwarded-For` names the visitor.
        public var trustedProxies = TrustedProxies(blocks: [])
        /// The `onboard` each session runs, and its arguments before `--state-dir`.
        public var executable: String
        public var arguments: [String]
        public var stateFolder: String
        /// Only watch links, of the sessions in `watched` (serve-ssh's): no session starts here.
        public var watchOnly = false

        public init(executable: String, arguments: [String], stateFolder: String) {
            self.executable = executable
            self.arguments = arguments
            self.stateFolder = stateFolder
        }
    }

    let settings: Settings
    let assets: XtermAssets
    /// The sessions that can be watched here.
    let watched: WatchDirectory

    public init(settings: Settings, assets: XtermAssets, watched: WatchDirectory = WatchDirectory()) {
        self.settings = settings
        self.assets = assets
        self.watched = watched
    }

    /// Serves until SIGTERM or SIGINT; then hangs up every session and waits for them.
    /// `started` gets the address bound (port 0 picks one).
    public func run(started: @escaping @Sendable (String, Int) -> Void) async throws {
        var logger = Logger(label: "onboard-web")
        logger.logLevel = .warning
        let terminfo = settings.watchOnly ? "" : try XtermTerminfo.install(under: settings.stateFolder)
        let sessions = WebSessions(settings: settings, terminfo: terminfo, watched: watched)
        let router = Router(context: WebDemoContext.self)
        router.add(middleware: PageHeaders())
        WebPages(assets: assets, sessions: sessions).register(on: router)
        router.ws(
            "/terminal",
            shouldUpgrade: { request, _ in
                // Cross-site WebSocket hijacking: only this server's own page may connect.
                guard SameOrigin.allows(request) else { throw HTTPError(.forbidden) }
                return .upgrade([:])
            }
        ) { inbound, outbound, context in
            await TerminalSocket(sessions: sessions, settings: settings).serve(inbound, outbound, context)
        }
        let server: HTTPServerBuilder
        if let certificate = settings.tlsCertificate, let key = settings.tlsKey {
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            tls.minimumTLSVersion = .tlsv12
            server = try .tls(.http1WebSocketUpgrade(webSocketRouter: router), tlsConfiguration: tls)
        } else {
            server = .http1WebSocketUpgrade(webSocketRouter: router)
        }
        let host = settings.host
        let application = Application(
            router: router, server: server,
            configuration: .init(
                address: .hostname(settings.host, port: settings.port), serverName: "onboard-web", backlog: ListenAddress.backlog),
            onServerRunning: { channel in started(host, channel.localAddress?.port ?? 0) },
            logger: logger)
        let sweeper = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                sessions.endAbandoned()
            }
        }
        defer { sweeper.cancel() }
        // At a stop the sessions are hung up first, so each page is told why before the
        // web server closes its socket (it closed them first: a page lost its connection
        // with no word). Services stop in the reverse of their order here.
        let group = ServiceGroup(
            configuration: .init(
                services: [application, HangUpAtStop(registry: sessions.registry)], gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
        // Each program saves and exits on the hangup; one that does not is killed. (Again
        // for one started while the others were hung up.)
        await Task.detached { sessions.registry.endAll(because: SessionRegistry.serverStopped) }.value
    }
}

/// A request's context: the router's, the WebSocket upgrade's, and the peer's address.
struct WebDemoContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let peer: SocketAddress?
    let local: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        peer = source.channel.remoteAddress
        local = source.channel.localAddress
    }
}

/// The WebSocket's `Origin` must name the host the page was served from: a page of
/// another site that opens this server's socket in a visitor's browser is refused.
enum SameOrigin {
    static func allows(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin], let host = request.head.authority,
            let components = URLComponents(string: origin), let scheme = components.scheme, ["http", "https"].contains(scheme),
            let originHost = components.host
        else { return false }
        // An IPv6 origin's host comes without its brackets; the Host header keeps them.
        let bracketed = originHost.contains(":") && !originHost.hasPrefix("[") ? "[\(originHost)]" : originHost
        let originAuthority = bracketed.lowercased() + (components.port.map { ":\($0)" } ?? "")
        let defaultPort = scheme == "https" ? ":443" : ":80"
        let requested = host.lowercased()
        return requested == originAuthority || requested == originAuthority + defaultPort
    }
}

/// Every answer: a strict content policy (scripts and styles from this server only; the
/// socket to itself), no framing, no caching, no sniffing, no referrer.
struct PageHeaders: RouterMiddleware {
    typealias Context = WebDemoContext

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers.append(contentsOf: Self.fixed)
        return response
    }

    /// Headers HTTPTypes has no names for, as fields ready to add.
    static let fixed = HTTPFields(
        [("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY")].compactMap { name, value in
            HTTPField.Name(name).map { HTTPField(name: $0, value: value) }
        })
}

/// Hangs every session up when the server is told to stop, before the web server stops;
/// each page is told why.
struct HangUpAtStop: Service {
    let registry: SessionRegistry

    func run() async throws {
        try? await gracefulShutdown()
        await Task.detached { [registry] in registry.endAll(because: SessionRegistry.serverStopped) }.value
    }
}
