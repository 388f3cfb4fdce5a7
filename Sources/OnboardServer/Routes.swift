import Foundation
import Hummingbird
import OnboardService
import ServiceAPI

/// `/api/v1`: the HTTP face of `OnboardService`. Handlers only decode, call and encode;
/// the behaviour is the service's, the same the embedded mock runs.
struct Routes {
    let service: OnboardService
    let clock: AdjustableClock
    let faults: FaultSwitchboard
    let dev: Bool
    let openAPI: Data

    func register(on router: Router<APIContext>) {
        let api = router.group("api/v1")
        api.on(.health) { _, _ in JSONReply(Wire.Health(status: "ok")) }
        api.on(.openAPI) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: openAPI)))
        }

        api.on(.signInAnonymously) { request, context in
            let body = try await request.decode(as: Wire.FlowRequest.self, context: context)
            return JSONReply(try await service.signInAnonymously(policy: OnboardService.guestPolicy(forFlow: body.flow), client: context.clientAddress, idempotencyKey: Self.idempotencyKey(request), idempotencyProof: try Self.idempotencyProof(request)))
        }
        api.on(.register) { request, context in
            let body = try await request.decode(as: Wire.RegisterRequest.self, context: context)
            return JSONReply(try await service.register(name: body.name, email: body.email, password: body.password, policy: .named, client: context.clientAddress, idempotencyKey: Self.idempotencyKey(request), idempotencyProof: try Self.idempotencyProof(request)))
        }
        api.on(.login) { request, context in
            let body = try await request.decode(as: Wire.LoginRequest.self, context: context)
            // A guest's bearer token, when the device leaving it sends one: its purchases follow.
            let guest = try? Self.bearer(request)
            return JSONReply(try await service.login(
                email: body.email, password: body.password, policy: .named, client: context.clientAddress, guestAccessToken: guest,
                deviceToken: Self.header("device-token", request)))
        }
        api.on(.linkEmail) { request, context in
            let token = try Self.bearer(request)
            let body = try await request.decode(as: Wire.LoginRequest.self, context: context)
            return JSONReply(try await service.linkEmail(accessToken: token, email: body.email, password: body.password, policy: .named, idempotencyKey: Self.idempotencyKey(request)))
        }
        api.on(.refresh) { request, context in
            let body = try await request.decode(as: Wire.RefreshRequest.self, context: context)
            return JSONReply(try await service.refresh(refreshToken: body.refreshToken))
        }
        api.on(.logout) { request, context in
            let body = try await request.decode(as: Wire.RefreshRequest.self, context: context)
            try await service.logout(refreshToken: body.refreshToken)
            return JSONReply(Wire.Empty())
        }
        api.on(.sendPhoneCode) { request, context in
            let body = try await request.decode(as: Wire.PhoneRequest.self, context: context)
            return JSONReply(try await service.sendPhoneCode(phone: body.phone, client: context.clientAddress, idempotencyKey: Self.idempotencyKey(request)))
        }
        api.on(.verifyPhoneCode) { request, context in
            let body = try await request.decode(as: Wire.PhoneVerifyRequest.self, context: context)
            return JSONReply(try await service.verifyPhoneCode(phone: body.phone, code: body.code, policy: .named, idempotencyKey: Self.idempotencyKey(request), idempotencyProof: try Self.idempotencyProof(request)))
        }
        api.on(.socialSignIn) { request, context in
            let body = try await request.decode(as: Wire.SocialRequest.self, context: context)
            return JSONReply(try await service.socialSignIn(provider: body.provider, idToken: body.idToken, nonce: body.nonce ?? "", policy: .named, idempotencyKey: Self.idempotencyKey(request), idempotencyProof: try Self.idempotencyProof(request)))
        }
        api.on(.appConfig) { _, _ in JSONReply(try await service.appConfig()) }
        api.on(.profile) { request, _ in
            JSONReply(try await service.profile(accessToken: try Self.bearer(request)))
        }
        api.on(.updateProfile) { request, context in
            let token = try Self.bearer(request)
            let body = try await request.decode(as: Wire.ProfileRequest.self, context: context)
            return JSONReply(try await service.updateProfile(accessToken: token, fields: body.fields))
        }
        api.on(.chooseName) { request, context in
            let token = try Self.bearer(request)
            let body = try await request.decode(as: Wire.NameRequest.self, context: context)
            return JSONReply(try await service.chooseName(accessToken: token, name: body.name))
        }
        api.on(.children) { request, _ in
            JSONReply(try await service.children(accessToken: try Self.bearer(request)))
        }
        api.on(.addChild) { request, context in
            let token = try Self.bearer(request)
            let body = try await request.decode(as: Wire.ChildRequest.self, context: context)
            return JSONReply(try await service.addChild(accessToken: token, name: body.name, birthDate: body.birthDate, idempotencyKey: Self.idempotencyKey(request)))
        }
        api.on(.createInvite) { request, context in
            let token = try Self.bearer(request)
            let body = try await request.decode(as: Wire.InviteRequest.self, context: context)
            return JSONReply(try await service.createInvite(accessToken: token, childID: body.childID, idempotencyKey: Self.idempotencyKey(request)))
        }
        api.on(.acceptInvite) { request, context in
            let token = try Self.bearer(request)
            let body = try await request.decode(as: Wire.AcceptRequest.self, context: context)
            return JSONReply(try await service.acceptInvite(accessToken: token, code: body.code, client: context.clientAddress, idempotencyKey: Self.idempotencyKey(request)))
        }
        api.on(.records) { request, _ in
            JSONReply(try await service.records(accessToken: try Self.bearer(request)))
        }
        api.on(.putRecord) { request, context in
            let token = try Self.bearer(request)
            let body = try await request.decode(as: Wire.RecordRequest.self, context: context)
            let key = try context.parameters.require("key")
            try await service.putRecord(accessToken: token, key: key, value: body.value, idempotencyKey: Self.idempotencyKey(request))
            return JSONReply(Wire.Empty())
        }
        api.on(.motivation) { request, _ in
            JSONReply(Wire.Message(message: try await service.motivation(accessToken: try Self.bearer(request))))
        }
        api.on(.content) { request, context in
            JSONReply(try await service.content(accessToken: try Self.bearer(request), kind: try context.parameters.require("kind")))
        }
        // Hummingbird's trie prefers a static segment and does not fall back to a parameter
        // at a path's last segment, so /content/motivation would stop at the inner node of
        // /content/motivation/random. Named on its own; routeList folds it into {kind}.
        api.get(RouterPath(Self.contentShadowedByMotivation)) { request, _ in
            JSONReply(try await service.content(accessToken: try Self.bearer(request), kind: "motivation"))
        }

        guard dev else { return }
        // QA controls: off unless the server runs with --dev (ASVS 14.3.2).
        api.on(.mockIdentityToken) { request, context in
            let body = try await request.decode(as: Wire.IdentityTokenRequest.self, context: context)
            let token = try await service.mockIdentityToken(provider: body.provider, account: body.account, audience: body.audience, nonce: body.nonce)
            return JSONReply(Wire.IdentityToken(idToken: token))
        }
        api.on(.devOutbox) { _, _ in JSONReply(try await service.outbox()) }
        api.on(.devReset) { _, _ in
            try await service.reset()
            faults.set([])
            clock.offsetSeconds = 0
            return JSONReply(Wire.Empty())
        }
        api.on(.devConfig) { request, context in
            let values = try await request.decode(as: [String: FieldValue].self, context: context)
            service.overrideConfig(values)
            return JSONReply(try await service.appConfig())
        }
        api.on(.devClock) { request, context in
            let body = try await request.decode(as: Wire.ClockRequest.self, context: context)
            guard ClockOffset.isAllowed(body.offsetSeconds) else {
                throw ServiceError(.invalidInput, "offset_seconds must be between -\(ClockOffset.limitSeconds) and \(ClockOffset.limitSeconds) (100 years either way).")
            }
            // In the store, so every instance on it moves: each reads it per request.
            try await service.setQAClockOffset(body.offsetSeconds)
            clock.offsetSeconds = body.offsetSeconds
            return JSONReply(Wire.ClockRequest(offsetSeconds: body.offsetSeconds))
        }
        api.on(.devFaults) { request, context in
            let body = try await request.decode(as: Wire.FaultsRequest.self, context: context)
            var parsed: [Fault] = []
            for name in body.faults {
                let known = Fault.kinds.filter { $0 != "forged-id-token" && $0 != "timeout" }
                guard let fault = Fault(argument: name), fault != .forgedIDToken, fault != .timeout else {
                    // A forged token is made on the client's side (`onboard --fault forged-id-token`),
                    // and a timeout is the client's clock running out (`onboard --fault timeout`).
                    throw ServiceError(.invalidInput, "Unknown fault '\(name)'; known: \(known.joined(separator: ", ")).")
                }
                parsed.append(fault)
            }
            faults.set(parsed)
            return JSONReply(Wire.FaultsRequest(faults: parsed.map(\.description)))
        }
    }

    /// The one `/content/{kind}` the router needs named (see `register`).
    static let contentShadowedByMotivation = "content/motivation"

    /// A header of ours by its lower-case name (`device-token`: a known device's token).
    static func header(_ name: String, _ request: Request) -> String? {
        request.headers.first { $0.name.canonicalName == name }?.value
    }

    /// The `Idempotency-Key` header, for calls that create or spend something.
    static func idempotencyKey(_ request: Request) -> String? {
        header("idempotency-key", request)
    }

    /// The `Idempotency-Proof` header: the device's proof for a repeated sign-in.
    static func idempotencyProof(_ request: Request) throws -> String? {
        guard let proof = header("idempotency-proof", request) else { return nil }
        guard proof.count <= 200 else { throw ServiceError(.invalidInput, "An Idempotency-Proof is at most 200 characters.") }
        return proof
    }

    /// The session's access token. Handlers ask for it before decoding a body, so a
    /// request without one is a 401 before anything is said about its body.
    static func bearer(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "), header.count > 7 else {
            throw ServiceError(.unauthorized, "This needs a signed-in session (an Authorization: Bearer token).")
        }
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
