/// The one interface the runtime calls: every operation the five flows need. Transports:
/// in process (the embedded mock) and HTTP (`onboard-server`). Every failure is a
/// `ServiceError` with a stable code; one contract test suite runs against both.
public protocol AuthService: Sendable {
    func health() async throws -> String
    func appConfig() async throws -> [String: FieldValue]

    // Anonymous and named accounts
    func signInAnonymously(flow: String) async throws -> AnonymousSignIn
    func chooseName(accessToken: String, name: String) async throws -> Profile
    func register(flow: String, name: String, email: String, password: String) async throws -> IssuedSession
    /// `guestAccessToken`: the guest this device leaves for the account, whose purchases
    /// follow the person to it (nil when no guest is signed in).
    func login(flow: String, email: String, password: String, guestAccessToken: String?) async throws -> IssuedSession
    func linkEmail(flow: String, accessToken: String, email: String, password: String) async throws -> IssuedSession
    func sendPhoneCode(phone: String) async throws -> PhoneCodeSent
    func verifyPhoneCode(flow: String, phone: String, code: String) async throws -> SignIn
    /// The mock identity provider's consent screen, after Allow: a signed ID token.
    func mockIdentityToken(provider: String, account: String, audience: String, nonce: String) async throws -> String
    func socialSignIn(flow: String, provider: String, idToken: String, nonce: String) async throws -> SignIn

    // Sessions
    func refresh(refreshToken: String) async throws -> IssuedSession
    func logout(refreshToken: String) async throws

    // The signed-in user's data
    func profile(accessToken: String) async throws -> Profile
    func updateProfile(accessToken: String, fields: [String: FieldValue]) async throws -> Profile
    func addChild(accessToken: String, name: String, birthDate: String?) async throws -> Child
    func children(accessToken: String) async throws -> [Child]
    func createInvite(accessToken: String, childID: String) async throws -> Invite
    func acceptInvite(accessToken: String, code: String) async throws -> InviteAcceptance
    func putRecord(accessToken: String, key: String, value: FieldValue) async throws
    func records(accessToken: String) async throws -> [String: FieldValue]

    // Content
    func motivation(accessToken: String) async throws -> String
    func content(accessToken: String, kind: String) async throws -> [ContentEntry]
}

/// A service that wraps another and runs every call through `around` (faults, counting,
/// delays). Conformers write `around` once; the forwarding is here.
public protocol AuthServiceDecorator: AuthService {
    var base: any AuthService { get }
    /// `endpoint` names the call (`.refresh`, `.health`, …).
    func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T
}

extension AuthServiceDecorator {
    public func health() async throws -> String { try await around(.health) { try await base.health() } }
    public func appConfig() async throws -> [String: FieldValue] { try await around(.appConfig) { try await base.appConfig() } }
    public func signInAnonymously(flow: String) async throws -> AnonymousSignIn {
        try await around(.signInAnonymously) { try await base.signInAnonymously(flow: flow) }
    }
    public func chooseName(accessToken: String, name: String) async throws -> Profile {
        try await around(.chooseName) { try await base.chooseName(accessToken: accessToken, name: name) }
    }
    public func register(flow: String, name: String, email: String, password: String) async throws -> IssuedSession {
        try await around(.register) { try await base.register(flow: flow, name: name, email: email, password: password) }
    }
    public func login(flow: String, email: String, password: String, guestAccessToken: String?) async throws -> IssuedSession {
        try await around(.login) { try await base.login(flow: flow, email: email, password: password, guestAccessToken: guestAccessToken) }
    }
    public func linkEmail(flow: String, accessToken: String, email: String, password: String) async throws -> IssuedSession {
        try await around(.linkEmail) { try await base.linkEmail(flow: flow, accessToken: accessToken, email: email, password: password) }
    }
    public func sendPhoneCode(phone: String) async throws -> PhoneCodeSent {
        try await around(.sendPhoneCode) { try await base.sendPhoneCode(phone: phone) }
    }
    public func verifyPhoneCode(flow: String, phone: String, code: String) async throws -> SignIn {
        try await around(.verifyPhoneCode) { try await base.verifyPhoneCode(flow: flow, phone: phone, code: code) }
    }
    public func mockIdentityToken(provider: String, account: String, audience: String, nonce: String) async throws -> String {
        try await around(.mockIdentityToken) { try await base.mockIdentityToken(provider: provider, account: account, audience: audience, nonce: nonce) }
    }
    public func socialSignIn(flow: String, provider: String, idToken: String, nonce: String) async throws -> SignIn {
        try await around(.socialSignIn) { try await base.socialSignIn(flow: flow, provider: provider, idToken: idToken, nonce: nonce) }
    }
    public func refresh(refreshToken: String) async throws -> IssuedSession {
        try await around(.refresh) { try await base.refresh(refreshToken: refreshToken) }
    }
    public func logout(refreshToken: String) async throws {
        try await around(.logout) { try await base.logout(refreshToken: refreshToken) }
    }
    public func profile(accessToken: String) async throws -> Profile {
        try await around(.profile) { try await base.profile(accessToken: accessToken) }
    }
    public func updateProfile(accessToken: String, fields: [String: FieldValue]) async throws -> Profile {
        try await around(.updateProfile) { try await base.updateProfile(accessToken: accessToken, fields: fields) }
    }
    public func addChild(accessToken: String, name: String, birthDate: String?) async throws -> Child {
        try await around(.addChild) { try await base.addChild(accessToken: accessToken, name: name, birthDate: birthDate) }
    }
    public func children(accessToken: String) async throws -> [Child] {
        try await around(.children) { try await base.children(accessToken: accessToken) }
    }
    public func createInvite(accessToken: String, childID: String) async throws -> Invite {
        try await around(.createInvite) { try await base.createInvite(accessToken: accessToken, childID: childID) }
    }
    public func acceptInvite(accessToken: String, code: String) async throws -> InviteAcceptance {
        try await around(.acceptInvite) { try await base.acceptInvite(accessToken: accessToken, code: code) }
    }
    public func putRecord(accessToken: String, key: String, value: FieldValue) async throws {
        try await around(.putRecord) { try await base.putRecord(accessToken: accessToken, key: key, value: value) }
    }
    public func records(accessToken: String) async throws -> [String: FieldValue] {
        try await around(.records) { try await base.records(accessToken: accessToken) }
    }
    public func motivation(accessToken: String) async throws -> String {
        try await around(.motivation) { try await base.motivation(accessToken: accessToken) }
    }
    public func content(accessToken: String, kind: String) async throws -> [ContentEntry] {
        try await around(.content) { try await base.content(accessToken: accessToken, kind: kind) }
    }
}

extension AuthService {
    /// A log-in with no guest on this device.
    public func login(flow: String, email: String, password: String) async throws -> IssuedSession {
        try await login(flow: flow, email: email, password: password, guestAccessToken: nil)
    }
}
