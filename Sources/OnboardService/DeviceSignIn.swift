import InputRules
import ServiceAPI

/// Social sign-in approved in a browser (RFC 8628, the OAuth 2.0 Device Authorization
/// Grant): the terminal shows a short code and an address, the person approves in any
/// browser (a phone, from an SSH session), and the terminal's poll gets the session.
/// The service brokers: it is the one that talks to the provider, so every provider
/// works the same for every client: onboard-server sends the browser to the provider
/// (OpenID Connect) and comes back with the identity it vouched for; the embedded mock,
/// with no browser, takes its mock provider's ID token from the terminal instead.
extension OnboardService {
    /// RFC 8628 §6.1: base 20 without vowels (no words spelt) or look-alikes; eight
    /// characters, about 34.5 bits, shown as two halves.
    static let userCodeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

    /// A device code never issued, spent, expired, or a user code no sign-in waits under.
    static let deviceCodeExpired = ServiceError(.expiredToken, "This sign-in code has expired. Start again for a new one.")

    public func startDeviceSignIn(provider: String, client: String, origin: String?) async throws -> DeviceAuthorization {
        let provider = try Self.knownProvider(provider)
        guard settings.mockIdentityProvider || settings.brokeredProviders.contains(provider) else {
            throw SocialProvider.unavailable(provider)
        }
        let now = clock.now()
        try await limit("sign-in", address: client, settings.signInPerAddress, now: now)
        let deviceCode = Secrets.token(prefix: "dc_")
        // SystemRandomNumberGenerator: the kernel's CSPRNG.
        let userCode = String((0..<8).map { _ in Self.userCodeAlphabet[Int.random(in: Self.userCodeAlphabet.indices)] })
        try await store.createDeviceGrant(
            NewDeviceGrant(
                deviceCodeHash: Secrets.hash(deviceCode), userCode: userCode, provider: provider, createdAt: now,
                expiresAt: now + settings.deviceCodeLifetime, interval: settings.devicePollInterval, requestedFrom: client))
        let base = origin ?? "mock://local"
        let shown = Self.displayed(userCode)
        // For a QR code (RFC 8628 §3.3.1): upper case with the code in the path, every
        // character QR's alphanumeric mode holds, so the code is small enough for 80x24.
        let complete = (base + "/D/" + shown).uppercased()
        return DeviceAuthorization(
            deviceCode: deviceCode, userCode: shown, verificationURI: base + "/device", verificationURIComplete: complete,
            expiresIn: settings.deviceCodeLifetime, interval: settings.devicePollInterval)
    }

    /// One poll of the terminal that started the sign-in: RFC 8628 §3.5's answers as
    /// error codes until the person decides, then the session, once.
    public func pollDeviceSignIn(deviceCode: String, policy: TokenPolicy) async throws -> SignIn {
        let now = clock.now()
        let hash = Secrets.hash(deviceCode)
        switch try await store.pollDeviceGrant(deviceCodeHash: hash, now: now) {
        case .unknown, .expired:
            throw Self.deviceCodeExpired
        case .slowDown(let interval):
            // The wait said is the one enforced from now on.
            throw ServiceError(.slowDown, "Asked again too soon: wait \(interval) seconds between polls from now on.")
        case .pending:
            throw ServiceError(.authorizationPending, "Waiting for the sign-in to be approved in the browser.")
        case .denied:
            throw ServiceError(.accessDenied, "The sign-in was not approved.")
        case .approved(let provider, let identity, let expiresAt):
            let refresh = newRefreshToken(for: Secrets.userID(), policy: policy)
            // The grant is spent already; its id also spends like an ID token's would.
            guard
                let user = try await store.socialUser(
                    tokenID: "device:" + hash, tokenExpiry: expiresAt, provider: provider, subject: identity.subject, email: identity.email,
                    now: now, token: refresh.record)
            else { throw Self.deviceCodeExpired }
            let session = try await session(
                (refresh.token, refresh.record.granted(to: user.userID)), createdAt: user.createdAt, isAnonymous: false)
            return SignIn(session: session, isNewUser: user.isNew)
        }
    }

    /// The terminal gave the sign-in up (Cancel, Esc, a relaunch): its code can no longer
    /// be approved, so a browser left open on it says so instead of "it goes on by
    /// itself". The device code is the terminal's secret, so holding it is the right to
    /// withdraw it; a code unknown, spent or withdrawn already answers the same.
    public func withdrawDeviceSignIn(deviceCode: String) async throws {
        try await store.withdrawDeviceGrant(deviceCodeHash: Secrets.hash(deviceCode))
    }

    /// The verification page: the provider of the grant waiting under a typed code (any
    /// case; dashes and spaces ignored), nil when none is. Tries are limited per address:
    /// a code is guessable only by trying very many.
    public func pendingDeviceSignIn(userCode typed: String, client: String) async throws -> PendingDeviceGrant? {
        let now = clock.now()
        try await limit("user-code", address: client, settings.userCodeAttemptsPerAddress, now: now)
        guard let code = Self.normalisedUserCode(typed) else { return nil }
        return try await store.pendingDeviceGrant(userCode: code, now: now)
    }

    /// The grant under a code a confirmation page already found: still waiting, or nil.
    /// Not counted as a try: the sealed confirmation proves the code was typed before.
    public func pendingDeviceSignIn(confirmed typed: String) async throws -> PendingDeviceGrant? {
        guard let code = Self.normalisedUserCode(typed) else { return nil }
        return try await store.pendingDeviceGrant(userCode: code, now: clock.now())
    }

    /// The broker's decision, once the provider has answered: approved as the identity it
    /// vouched for, or denied (nil). False when no grant waits under the code any more
    /// (expired, or decided already: a callback replayed).
    public func finishDeviceSignIn(userCode typed: String, identity: DeviceIdentity?) async throws -> Bool {
        guard let code = Self.normalisedUserCode(typed) else { return false }
        return try await store.decideDeviceGrant(userCode: code, identity: identity, now: clock.now())
    }

    /// The embedded mock's approval, made in the terminal where there is no browser: the
    /// mock provider's ID token for the grant's provider and `nonce` (checked as a social
    /// sign-in's is) gives the grant waiting under `userCode` its identity.
    public func approveDeviceSignIn(userCode typed: String, idToken: String, nonce: String, client: String) async throws {
        guard settings.mockIdentityProvider else { throw SocialProvider.unavailable("your provider") }
        guard let code = Self.normalisedUserCode(typed), let grant = try await pendingDeviceSignIn(userCode: code, client: client) else {
            throw Self.deviceCodeExpired
        }
        let claims = try await verifiedMockClaims(provider: grant.provider, idToken: idToken, nonce: nonce, now: clock.now())
        let identity = DeviceIdentity(subject: claims.sub, email: claims.email)
        guard try await store.decideDeviceGrant(userCode: code, identity: identity, now: clock.now()) else { throw Self.deviceCodeExpired }
    }

    /// `BCDFGHJK` as people read it: `BCDF-GHJK`.
    static func displayed(_ code: String) -> String {
        String(code.prefix(4)) + "-" + String(code.dropFirst(4))
    }

    /// A typed code as stored (upper case, no dashes or spaces), nil unless it is eight
    /// characters of the alphabet.
    static func normalisedUserCode(_ typed: String) -> String? {
        let code = String(typed.uppercased().filter { $0 != "-" && !$0.isWhitespace })
        guard code.count == 8, code.allSatisfy(userCodeAlphabet.contains) else { return nil }
        return code
    }
}

extension OnboardService {
    /// A provider's answer the broker refused (a forged, expired or replayed ID token, a
    /// provider out of reach), or a confirmation refused, in the security log as a refused
    /// social token is: with the browser's address and the sign-in it was for (a hash of
    /// its user code, never the code), so an operator can follow one (ASVS 16.2.1).
    /// The reason may quote the provider's own words: made inert, one line, before the log.
    public func recordProviderRefusal(provider: String, reason: String, address: String, userCode: String?) {
        let grant = userCode.map { "device:" + Secrets.hash("device-log:" + $0).prefix(16) }
        record(
            .socialTokenRefused, account: grant, address: address,
            outcome: "refused: \(provider) sign-in in the browser: \(reason.madeInert(keepingNewlines: false))")
    }
}
