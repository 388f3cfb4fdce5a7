import OnboardService
import ServiceAPI

/// The embedded mock: `OnboardService` called directly, over its own SQLite file.
public struct InProcessTransport: AuthService {
    public let service: OnboardService
    /// Stands for the client's address in per-address rate limits.
    static let client = "local"

    public init(service: OnboardService) {
        self.service = service
    }

    public func health() async throws -> String { try await service.health() }
    public func appConfig() async throws -> [String: FieldValue] { try await service.appConfig() }

    public func signInAnonymously(flow: String) async throws -> AnonymousSignIn {
        try await service.signInAnonymously(policy: OnboardService.guestPolicy(forFlow: flow), client: Self.client, idempotencyKey: CallContext.idempotencyKey, idempotencyProof: CallContext.idempotencyProof)
    }
    public func chooseName(accessToken: String, name: String) async throws -> Profile {
        try await service.chooseName(accessToken: accessToken, name: name)
    }
    public func register(flow: String, name: String, email: String, password: String) async throws -> IssuedSession {
        try await service.register(name: name, email: email, password: password, policy: .named, client: Self.client, idempotencyKey: CallContext.idempotencyKey, idempotencyProof: CallContext.idempotencyProof)
    }
    public func login(flow: String, email: String, password: String, guestAccessToken: String?) async throws -> IssuedSession {
        try await service.login(
            email: email, password: password, policy: .named, client: Self.client, guestAccessToken: guestAccessToken, deviceToken: CallContext.deviceToken)
    }
    public func linkEmail(flow: String, accessToken: String, email: String, password: String) async throws -> IssuedSession {
        try await service.linkEmail(accessToken: accessToken, email: email, password: password, policy: .named, idempotencyKey: CallContext.idempotencyKey)
    }
    public func sendPhoneCode(phone: String) async throws -> PhoneCodeSent {
        try await service.sendPhoneCode(phone: phone, client: Self.client, idempotencyKey: CallContext.idempotencyKey)
    }
    public func verifyPhoneCode(flow: String, phone: String, code: String) async throws -> SignIn {
        try await service.verifyPhoneCode(phone: phone, code: code, policy: .named, idempotencyKey: CallContext.idempotencyKey, idempotencyProof: CallContext.idempotencyProof)
    }
    public func mockIdentityToken(provider: String, account: String, audience: String, nonce: String) async throws -> String {
        try await service.mockIdentityToken(provider: provider, account: account, audience: audience, nonce: nonce)
    }
    public func socialSignIn(flow: String, provider: String, idToken: String, nonce: String) async throws -> SignIn {
        try await service.socialSignIn(provider: provider, idToken: idToken, nonce: nonce, policy: .named, idempotencyKey: CallContext.idempotencyKey, idempotencyProof: CallContext.idempotencyProof)
    }

    public func refresh(refreshToken: String) async throws -> IssuedSession { try await service.refresh(refreshToken: refreshToken) }
    public func logout(refreshToken: String) async throws { try await service.logout(refreshToken: refreshToken) }

    public func profile(accessToken: String) async throws -> Profile { try await service.profile(accessToken: accessToken) }
    public func updateProfile(accessToken: String, fields: [String: FieldValue]) async throws -> Profile {
        try await service.updateProfile(accessToken: accessToken, fields: fields)
    }
    public func addChild(accessToken: String, name: String, birthDate: String?) async throws -> Child {
        try await service.addChild(accessToken: accessToken, name: name, birthDate: birthDate, idempotencyKey: CallContext.idempotencyKey)
    }
    public func children(accessToken: String) async throws -> [Child] { try await service.children(accessToken: accessToken) }
    public func createInvite(accessToken: String, childID: String) async throws -> Invite {
        try await service.createInvite(accessToken: accessToken, childID: childID, idempotencyKey: CallContext.idempotencyKey)
    }
    public func acceptInvite(accessToken: String, code: String) async throws -> InviteAcceptance {
        try await service.acceptInvite(accessToken: accessToken, code: code, client: Self.client, idempotencyKey: CallContext.idempotencyKey)
    }
    public func putRecord(accessToken: String, key: String, value: FieldValue) async throws {
        try await service.putRecord(accessToken: accessToken, key: key, value: value, idempotencyKey: CallContext.idempotencyKey)
    }
    public func records(accessToken: String) async throws -> [String: FieldValue] { try await service.records(accessToken: accessToken) }

    public func motivation(accessToken: String) async throws -> String { try await service.motivation(accessToken: accessToken) }
    public func content(accessToken: String, kind: String) async throws -> [ContentEntry] {
        try await service.content(accessToken: accessToken, kind: kind)
    }
}
