import ServiceAPI

/// Who made a call and how it came: the same facts from the embedded mock's transport
/// and from onboard-server's headers.
public struct Caller: Sendable {
    /// The `Authorization: Bearer` token, if any.
    public var bearer: String?
    /// The client's address, for per-address limits ("local" on the embedded mock).
    public var client: String
    public var idempotencyKey: String?
    /// The device's proof of a repeated sign-in's key.
    public var idempotencyProof: String?
    /// A known device's token for the email it logs in to.
    public var deviceToken: String?
    /// `https://host:port` as the caller reached the service, for addresses it gives
    /// back (a device sign-in's page); nil in process.
    public var origin: String?

    public init(
        bearer: String?, client: String, idempotencyKey: String?, idempotencyProof: String?, deviceToken: String?, origin: String? = nil
    ) {
        (self.bearer, self.client, self.idempotencyKey, self.idempotencyProof, self.deviceToken, self.origin) =
            (bearer, client, idempotencyKey, idempotencyProof, deviceToken, origin)
    }

    /// The session's access token; a call that needs one and has none is turned down.
    public func accessToken() throws -> String {
        guard let bearer else { throw ServiceError(.unauthorized, "This needs a signed-in session (an Authorization: Bearer token).") }
        return bearer
    }
}

/// A call the service answers: the embedded mock and onboard-server's routes both serve
/// every one of `OnboardService.servedCalls` through `serve`, so each is wired once. A
/// new call is a `Wire` declaration and its conformance here (or beside its behaviour).
public protocol ServedCall: WireCall {
    func serve(on service: OnboardService, as caller: Caller) async throws -> Answer
}

extension OnboardService {
    /// Every call a client makes, as the embedded mock and onboard-server serve it: each
    /// of `Wire.allCalls` this module conforms to `ServedCall` (the QA controls are the
    /// server's own, with its faults and clock).
    public static let servedCalls: [any ServedCall.Type] = Wire.allCalls.compactMap { $0 as? any ServedCall.Type }

    /// Serves any call, in process: the embedded mock's whole transport.
    public func answer<Call: WireCall>(_ call: Call, as caller: Caller) async throws -> Call.Answer {
        guard let served = call as? any ServedCall else {
            throw ServiceError(.notFound, "There is no such endpoint.")
        }
        guard let answer = try await served.serve(on: self, as: caller) as? Call.Answer else {
            throw ServiceError.failedUnexpectedly
        }
        return answer
    }
}

extension Wire.HealthCall: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.Health {
        Wire.Health(status: try await service.health())
    }
}
extension Wire.AppConfigCall: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> [String: FieldValue] {
        try await service.appConfig()
    }
}
extension Wire.FlowRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> AnonymousSignIn {
        try await service.signInAnonymously(
            policy: OnboardService.guestPolicy(forFlow: flow), flow: flow, client: caller.client, idempotencyKey: caller.idempotencyKey,
            idempotencyProof: caller.idempotencyProof)
    }
}
extension Wire.NameRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Profile {
        try await service.chooseName(accessToken: try caller.accessToken(), name: name)
    }
}
extension Wire.RegisterRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> IssuedSession {
        try await service.register(
            name: name, email: email, password: password, policy: .named, flow: flow, client: caller.client,
            idempotencyKey: caller.idempotencyKey, idempotencyProof: caller.idempotencyProof)
    }
}
extension Wire.LoginRequest: ServedCall {
    /// A guest's bearer token, when the device leaving it sends one: its purchases follow.
    public func serve(on service: OnboardService, as caller: Caller) async throws -> IssuedSession {
        try await service.login(
            email: email, password: password, policy: .named, client: caller.client, guestAccessToken: caller.bearer,
            deviceToken: caller.deviceToken, bring: bring ?? [])
    }
}
extension Wire.LinkEmailRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> IssuedSession {
        try await service.linkEmail(
            accessToken: try caller.accessToken(), email: email, password: password, policy: .named, idempotencyKey: caller.idempotencyKey)
    }
}
extension Wire.PhoneRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> PhoneCodeSent {
        try await service.sendPhoneCode(phone: phone, client: caller.client, idempotencyKey: caller.idempotencyKey)
    }
}
extension Wire.PhoneVerifyRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> SignIn {
        try await service.verifyPhoneCode(
            phone: phone, code: code, policy: .named, flow: flow, idempotencyKey: caller.idempotencyKey,
            idempotencyProof: caller.idempotencyProof)
    }
}
extension Wire.IdentityTokenRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.IdentityToken {
        Wire.IdentityToken(
            idToken: try await service.mockIdentityToken(provider: provider, account: account, audience: audience, nonce: nonce))
    }
}
extension Wire.SocialRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> SignIn {
        try await service.socialSignIn(
            provider: provider, idToken: idToken, nonce: nonce ?? "", policy: .named, flow: flow, idempotencyKey: caller.idempotencyKey,
            idempotencyProof: caller.idempotencyProof)
    }
}
extension Wire.DeviceAuthorizationRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> DeviceAuthorization {
        try await service.startDeviceSignIn(provider: provider, client: caller.client, origin: caller.origin)
    }
}
extension Wire.DeviceTokenRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> SignIn {
        try await service.pollDeviceSignIn(deviceCode: deviceCode, policy: .named)
    }
}
extension Wire.DeviceWithdrawalRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.Empty {
        try await service.withdrawDeviceSignIn(deviceCode: deviceCode)
        return Wire.Empty()
    }
}
extension Wire.DeviceApprovalRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.Empty {
        try await service.approveDeviceSignIn(userCode: userCode, idToken: idToken, nonce: nonce, client: caller.client)
        return Wire.Empty()
    }
}
extension Wire.RefreshRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> IssuedSession {
        try await service.refresh(refreshToken: refreshToken)
    }
}
extension Wire.LogoutRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.Empty {
        try await service.logout(refreshToken: refreshToken)
        return Wire.Empty()
    }
}
extension Wire.ProfileCall: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Profile {
        try await service.profile(accessToken: try caller.accessToken())
    }
}
extension Wire.ProfileRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Profile {
        try await service.updateProfile(accessToken: try caller.accessToken(), fields: fields)
    }
}
extension Wire.ChildRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Child {
        try await service.addChild(
            accessToken: try caller.accessToken(), name: name, birthDate: birthDate, idempotencyKey: caller.idempotencyKey)
    }
}
extension Wire.ChildrenCall: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> [Child] {
        try await service.children(accessToken: try caller.accessToken())
    }
}
extension Wire.InviteRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Invite {
        try await service.createInvite(accessToken: try caller.accessToken(), childID: childID, idempotencyKey: caller.idempotencyKey)
    }
}
extension Wire.AcceptRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> InviteAcceptance {
        try await service.acceptInvite(
            accessToken: try caller.accessToken(), code: code, client: caller.client, idempotencyKey: caller.idempotencyKey)
    }
}
extension Wire.RecordRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.Empty {
        try await service.putRecord(accessToken: try caller.accessToken(), key: key, value: value, idempotencyKey: caller.idempotencyKey)
        return Wire.Empty()
    }
}
extension Wire.RecordItemRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.RecordItems {
        Wire.RecordItems(
            items: try await service.addRecordItem(
                accessToken: try caller.accessToken(), key: key, item: item, idempotencyKey: caller.idempotencyKey))
    }
}
extension Wire.RecordsCall: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> [String: FieldValue] {
        try await service.records(accessToken: try caller.accessToken())
    }
}
extension Wire.MotivationCall: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.Message {
        Wire.Message(message: try await service.motivation(accessToken: try caller.accessToken()))
    }
}
extension Wire.ContentCall: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> [ContentEntry] {
        try await service.content(accessToken: try caller.accessToken(), kind: kind)
    }
}
