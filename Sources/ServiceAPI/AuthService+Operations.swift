/// Every operation the five flows need, by name, over `send`: what the runtime and the
/// tests call.
extension AuthService {
    public func health() async throws -> String {
        try await send(Wire.HealthCall(), bearer: nil).status
    }
    public func appConfig() async throws -> [String: FieldValue] {
        try await send(Wire.AppConfigCall(), bearer: nil)
    }

    // Anonymous and named accounts
    public func signInAnonymously(flow: String) async throws -> AnonymousSignIn {
        try await send(Wire.FlowRequest(flow: flow), bearer: nil)
    }
    public func chooseName(accessToken: String, name: String) async throws -> Profile {
        try await send(Wire.NameRequest(name: name), bearer: accessToken)
    }
    public func register(flow: String, name: String, email: String, password: String) async throws -> IssuedSession {
        try await send(Wire.RegisterRequest(flow: flow, name: name, email: email, password: password), bearer: nil)
    }
    /// `guestAccessToken`: the guest this device leaves for the account, whose purchases
    /// follow the person to it (nil when no guest is signed in).
    /// `bring`: the guest's list records that go with it, with the person's yes.
    public func login(
        flow: String, email: String, password: String, guestAccessToken: String? = nil, bring: [String] = []
    ) async throws -> IssuedSession {
        try await send(
            Wire.LoginRequest(flow: flow, email: email, password: password, bring: bring.isEmpty ? nil : bring), bearer: guestAccessToken)
    }
    public func linkEmail(flow: String, accessToken: String, email: String, password: String) async throws -> IssuedSession {
        try await send(Wire.LinkEmailRequest(flow: flow, email: email, password: password), bearer: accessToken)
    }
    public func sendPhoneCode(phone: String) async throws -> PhoneCodeSent {
        try await send(Wire.PhoneRequest(phone: phone), bearer: nil)
    }
    public func verifyPhoneCode(flow: String, phone: String, code: String) async throws -> SignIn {
        try await send(Wire.PhoneVerifyRequest(flow: flow, phone: phone, code: code), bearer: nil)
    }
    /// The mock identity provider's consent screen, after Allow: a signed ID token.
    public func mockIdentityToken(provider: String, account: String, audience: String, nonce: String) async throws -> String {
        try await send(Wire.IdentityTokenRequest(provider: provider, account: account, audience: audience, nonce: nonce), bearer: nil)
            .idToken
    }
    public func socialSignIn(flow: String, provider: String, idToken: String, nonce: String) async throws -> SignIn {
        try await send(Wire.SocialRequest(flow: flow, provider: provider, idToken: idToken, nonce: nonce), bearer: nil)
    }

    /// A social sign-in approved in a browser: the codes to show and poll with.
    public func startSocialDevice(flow: String, provider: String) async throws -> DeviceAuthorization {
        try await send(Wire.DeviceAuthorizationRequest(flow: flow, provider: provider), bearer: nil)
    }
    /// One poll: the session once approved; RFC 8628's answers as error codes until then.
    public func pollSocialDevice(flow: String, deviceCode: String) async throws -> SignIn {
        try await send(Wire.DeviceTokenRequest(flow: flow, deviceCode: deviceCode), bearer: nil)
    }

    /// The sign-in of `deviceCode` given up: it can no longer be approved.
    public func withdrawSocialDevice(deviceCode: String) async throws {
        _ = try await send(Wire.DeviceWithdrawalRequest(deviceCode: deviceCode), bearer: nil)
    }

    /// The mock provider's approval of the sign-in under `userCode` with its ID token.
    public func approveSocialDevice(userCode: String, idToken: String, nonce: String) async throws {
        _ = try await send(Wire.DeviceApprovalRequest(userCode: userCode, idToken: idToken, nonce: nonce), bearer: nil)
    }

    // Sessions
    public func refresh(refreshToken: String) async throws -> IssuedSession {
        try await send(Wire.RefreshRequest(refreshToken: refreshToken), bearer: nil)
    }
    public func logout(refreshToken: String) async throws {
        _ = try await send(Wire.LogoutRequest(refreshToken: refreshToken), bearer: nil)
    }

    // The signed-in user's data
    public func profile(accessToken: String) async throws -> Profile {
        try await send(Wire.ProfileCall(), bearer: accessToken)
    }
    public func updateProfile(accessToken: String, fields: [String: FieldValue]) async throws -> Profile {
        try await send(Wire.ProfileRequest(fields: fields), bearer: accessToken)
    }
    public func addChild(accessToken: String, name: String, birthDate: String?) async throws -> Child {
        try await send(Wire.ChildRequest(name: name, birthDate: birthDate), bearer: accessToken)
    }
    public func children(accessToken: String) async throws -> [Child] {
        try await send(Wire.ChildrenCall(), bearer: accessToken)
    }
    public func createInvite(accessToken: String, childID: String) async throws -> Invite {
        try await send(Wire.InviteRequest(childID: childID), bearer: accessToken)
    }
    public func acceptInvite(accessToken: String, code: String) async throws -> InviteAcceptance {
        try await send(Wire.AcceptRequest(code: code), bearer: accessToken)
    }
    public func putRecord(accessToken: String, key: String, value: FieldValue) async throws {
        _ = try await send(Wire.RecordRequest(key: key, value: value), bearer: accessToken)
    }
    /// Adds `item` to the list under `key` on the service; the list as it is now.
    public func addRecordItem(accessToken: String, key: String, item: String) async throws -> [String] {
        try await send(Wire.RecordItemRequest(key: key, item: item), bearer: accessToken).items
    }
    public func records(accessToken: String) async throws -> [String: FieldValue] {
        try await send(Wire.RecordsCall(), bearer: accessToken)
    }

    // Content
    public func motivation(accessToken: String) async throws -> String {
        try await send(Wire.MotivationCall(), bearer: accessToken).message
    }
    public func content(accessToken: String, kind: String) async throws -> [ContentEntry] {
        try await send(Wire.ContentCall(kind: kind), bearer: accessToken)
    }
}
