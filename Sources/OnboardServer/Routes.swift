import Foundation
import Hummingbird
import OnboardService
import ServiceAPI

/// `/api/v1`: the HTTP face of `OnboardService`. Handlers only decode, call and encode;
/// the behaviour is the service's, the same the embedded mock runs.
struct Routes {
    let service: OnboardService
    let clock: AdjustableClock
    let dev: Bool
    let openAPI: Data
    /// `https` with `--tls-cert`: the scheme of addresses the server gives back.
    var scheme = "http"
    /// The providers whose sign-in this server brokers (empty: social sign-in is off).
    var identityProviders: [String: IdentityProvider] = [:]
    /// The operator's token for `/admin` (nil: the reports are off).
    var adminToken: String?
    /// `--public-url`: the origin handed out, whatever the request's Host says.
    var publicAddress: PublicAddress?

    func register(on router: Router<APIContext>) {
        let api = router.group(RouterPath(String(Endpoint.root.dropFirst())))
        api.on(.openAPI) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: openAPI)))
        }

        for call in OnboardService.servedCalls { serve(call, on: api) }
        // Hummingbird's trie prefers a static segment and does not fall back to a parameter
        // at a path's last segment, so /content/motivation would stop at the inner node of
        // /content/motivation/random. Named on its own; routeList folds it into {kind}.
        api.get(RouterPath(Self.contentShadowedByMotivation)) { request, context in
            JSONReply(try await Wire.ContentCall(kind: "motivation").serve(on: service, as: try caller(request, context)))
        }

        api.addRoutes(AdminRoutes(service: service, clock: clock, adminToken: adminToken).collection)

        if !identityProviders.isEmpty {
            DevicePage(
                service: service, providers: identityProviders, relyingParty: OpenIDRelyingParty(), origin: { origin($0) },
                https: scheme == "https" || publicAddress?.origin.hasPrefix("https://") == true
            ).register(on: router)
        }
        guard dev else { return }
        DevelopmentProvider(service: service, origin: { origin($0) }).register(on: router)
        // QA controls: off unless the server runs with --dev (ASVS 14.3.2).
        api.addRoutes(QAControlRoutes(service: service, clock: clock).collection)
    }

    /// For machines (a load balancer, an orchestrator), beside the clients'
    /// `/api/v1/health`: `/livez`, the process answers; `/readyz`, the store answers too
    /// (503 while the database is away). Registered before `--dev`'s middleware, which
    /// reads the shared QA clock from the store: a probe waits on nothing else.
    func registerProbes(on router: Router<APIContext>) {
        router.get("livez") { _, _ in JSONReply(Wire.Health(status: "ok")) }
        router.get("readyz") { _, _ in
            try await service.ready()
            return JSONReply(Wire.Health(status: "ok"))
        }
    }

    /// One call's route: the bearer token first where the call needs a session (a 401
    /// before anything is said about the body), then the body, the path's parameter, and
    /// the service's answer. The mock identity provider is served only with --dev.
    private func serve<Call: ServedCall>(_ type: Call.Type, on api: RouterGroup<APIContext>) {
        guard dev || !Call.endpoint.isDev else { return }
        api.on(Call.endpoint) { request, context in
            let caller = try caller(request, context)
            if Call.endpoint.needsSession { _ = try caller.accessToken() }
            var call =
                Call.endpoint.method == .get
                ? try JSONDecoder().decode(Call.self, from: Data("{}".utf8))
                : try await request.decode(as: Call.self, context: context)
            if let name = Call.endpoint.parameterName { call.pathParameter = try context.parameters.require(name) }
            return JSONReply(try await call.serve(on: service, as: caller))
        }
    }

    /// `scheme://host:port` as the request names this server (its Host header), for the
    /// addresses an answer gives back to the same caller; nil for a host that is not a
    /// plain name or address.
    func origin(_ request: Request) -> String? {
        if let publicAddress { return publicAddress.origin }
        guard let host = request.head.authority, !host.isEmpty, host.count <= 255,
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) })
        else { return nil }
        return "\(scheme)://\(host)"
    }

    /// The caller as its headers say: bearer token, address, idempotency key and proof,
    /// device token.
    func caller(_ request: Request, _ context: APIContext) throws -> Caller {
        Caller(
            bearer: Self.bearer(request), client: context.clientAddress, idempotencyKey: Self.header("idempotency-key", request),
            idempotencyProof: try Self.idempotencyProof(request), deviceToken: Self.header("device-token", request),
            origin: origin(request))
    }

    /// The one `/content/{kind}` the router needs named (see `register`).
    static let contentShadowedByMotivation = "content/motivation"

    /// A header of ours by its lower-case name (`device-token`: a known device's token).
    static func header(_ name: String, _ request: Request) -> String? {
        request.headers.first { $0.name.canonicalName == name }?.value
    }

    /// The `Idempotency-Proof` header: the device's proof for a repeated sign-in.
    static func idempotencyProof(_ request: Request) throws -> String? {
        guard let proof = header("idempotency-proof", request) else { return nil }
        guard proof.count <= 200 else { throw ServiceError(.invalidInput, "An Idempotency-Proof is at most 200 characters.") }
        return proof
    }

    /// The `Authorization: Bearer` token, if the request has one.
    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "), header.count > 7 else { return nil }
        return String(header.dropFirst(7))
    }
}

/// Any Encodable as a JSON response.
struct JSONReply<Value: Encodable>: ResponseGenerator {
    let value: Value
    init(_ value: Value) { self.value = value }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
