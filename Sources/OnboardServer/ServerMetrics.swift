import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceAPI
import ServiceLifecycle

/// What an operator's Prometheus scrapes, on a listener of its own (`--metrics-address`,
/// loopback by default) so the API's port never serves it. Names and labels follow
/// Prometheus' conventions (`_total` counters, `_seconds` histograms, snake case), and no
/// label carries a value a client chose: routes are the matched templates, methods and
/// statuses are HTTP's, the rest are names from the code.
///
/// Counters made elsewhere: `onboard_rate_limit_refusals_total{limit}`,
/// `onboard_idempotent_replays_total{operation}`, `onboard_refresh_reuse_detections_total`
/// (OnboardService); `onboard_store_connections_in_use`, `onboard_store_requests_waiting`,
/// `onboard_store_errors_total{kind}` (PostgresStore).
public enum ServerMetrics {
    /// swift-metrics' factory for the whole process (it can be set once), with the build
    /// as `onboard_build_info{version} 1`.
    public static func bootstrap(version: String) -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(DescribedMetricsFactory(registry: registry))
        let build = MetricNameDescriptor(namespace: "onboard", metricName: "build", unitName: "info", helpText: "The running build.")
        registry.makeGauge(descriptor: build, labels: [("version", version)]).set(to: 1)
        return registry
    }

    /// `GET /metrics` in the text exposition format, on its own address.
    static func application(
        registry: PrometheusCollectorRegistry, host: String, port: Int, logger: Logger, onReady: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "onboard-server-metrics"),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? port) }, logger: logger)
    }

    /// The metrics listener as a service of the server's: one that cannot start (its port
    /// taken by another instance on the machine) is said once in the log, and the API
    /// serves on without metrics until the server stops.
    struct Listener: Service {
        let application: any Service
        let address: String
        let logger: Logger

        func run() async throws {
            do {
                try await application.run()
            } catch {
                logger.error(
                    "metrics",
                    metadata: [
                        "outcome": "no /metrics: cannot listen on \(address) (\(error)); give --metrics-address another port, or off"
                    ])
                try? await gracefulShutdown()
            }
        }
    }

    /// The sign-in routes and the method each names in `onboard_sign_ins_total`.
    static let signIns: [String: String] = [
        Wire.FlowRequest.endpoint.path: "anonymous", Wire.RegisterRequest.endpoint.path: "register",
        Wire.LoginRequest.endpoint.path: "login", Wire.PhoneVerifyRequest.endpoint.path: "phone",
        Wire.SocialRequest.endpoint.path: "social", Wire.DeviceTokenRequest.endpoint.path: "social_device",
    ].reduce(into: [:]) { routes, entry in routes[Endpoint.root + entry.key] = entry.value }
}

/// Every request counted and timed by route, method and status
/// (`onboard_http_requests_total`, `onboard_http_request_duration_seconds`), and each
/// sign-in by method and outcome (`onboard_sign_ins_total`).
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = APIContext
    let routes: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        // A path no route has is not a label: anyone could make up endless ones. A route's
        // path asked with another method (405) is that route.
        let route = context.matchedRoute ?? routes.template(of: request.uri.path) ?? "unmatched"
        // Methods no route answers (WebDAV's, the parser's other dozens) are `other`: a
        // client chooses them, and a label is never a client's choice.
        let method = Self.methods.contains(request.method.rawValue) ? request.method.rawValue : "other"
        let status = response.status.code
        Counter(label: "onboard_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))])
            .increment()
        Timer(label: "onboard_http_request_duration_seconds", dimensions: [("route", route), ("method", method)])
            .record(duration: ContinuousClock.now - started)
        if let signIn = ServerMetrics.signIns[route], let outcome = Self.outcome(status, method: signIn) {
            Counter(label: "onboard_sign_ins_total", dimensions: [("method", signIn), ("outcome", outcome)]).increment()
        }
        return response
    }

    static let methods: Set = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// `success`, `refused` (a wrong password or code, a bad request), `rate_limited`,
    /// `unavailable` (the database away) or `error`; nil for a device's poll still
    /// waiting (not a sign-in yet).
    static func outcome(_ status: Int, method: String) -> String? {
        switch status {
        case 200..<300: "success"
        case 429: "rate_limited"
        case 503: "unavailable"
        case 500...: "error"
        case 400 where method == "social_device": nil
        default: "refused"
        }
    }
}
