import CoreMetrics
import Crypto
import Logging
import ServiceAPI
import Synchronization

/// The service's behaviour: accounts, sessions, tokens, names and content. One of it runs
/// in process (the embedded mock) or behind HTTP (`onboard-server`). Each change is one
/// write transaction (SQLite's write lock), so two processes sharing the file, or two
/// racing requests, never see half a change.
public final class OnboardService: Sendable {
    public let store: any ServiceStore
    public let clock: any ServiceClock
    public let settings: ServiceSettings
    let accessTokens: AccessTokens
    /// Keys the hashes of SMS codes (HMAC-SHA256), derived from the service's own secret:
    /// six digits under an unkeyed hash are reversed in under a second.
    let codeKey: SymmetricKey
    let deviceTokens: DeviceTokens
    /// Seals what a browser carries for the server (`BrowserSeals.swift`).
    let browserKey: SymmetricKey
    let identityProvider: MockIdentityProvider
    let configOverrides = Mutex<[String: FieldValue]>([:])
    /// Where security events go (`SecurityEvents.swift`): the server's log, nowhere in
    /// the embedded mock.
    let securityLog: Logger
    /// How many names an anonymous sign-in offers.
    public static let nameOptionCount = 3
    /// Whether plain pairs are still free to offer, as the last guests found.
    let plainPairs = PlainPairs()

    /// The service over a store, with the signing keys the store keeps.
    public init(
        store: any ServiceStore, keys: ServiceKeys, clock: any ServiceClock = SystemClock(), settings: ServiceSettings = ServiceSettings(),
        securityLog: Logger = OnboardService.silent
    ) throws {
        self.securityLog = securityLog
        self.store = store
        self.clock = clock
        self.settings = settings
        accessTokens = AccessTokens(secret: keys.signing)
        codeKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: keys.signing), info: Array("onboard sms codes".utf8), outputByteCount: 32)
        deviceTokens = DeviceTokens(secret: keys.signing)
        browserKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: keys.signing), info: Array("onboard browser seals".utf8), outputByteCount: 32)
        identityProvider = MockIdentityProvider(privateKey: try P256.Signing.PrivateKey(rawRepresentation: keys.identityProvider))
    }

    public func health() async throws -> String { "ok" }

    /// Whether the store answers (its migrations ran before the service was made): a
    /// database out of reach is `network`, which the server answers with 503.
    public func ready() async throws { try await store.ping() }

    // MARK: Sessions

    /// Rotates a refresh token. Within the grace window a just-rotated token still works
    /// (a lost reply, two terminals); reused after it, the whole family is revoked.
    public func refresh(refreshToken: String) async throws -> IssuedSession {
        let successor = Secrets.token(prefix: "rt_")
        switch try await store.rotateRefreshToken(
            hash: Secrets.hash(refreshToken), now: clock.now(), grace: settings.refreshGrace, successorHash: Secrets.hash(successor))
        {
        case .rejected:
            throw ServiceError.sessionRejected
        case .reused(let userID):
            Counter(label: "onboard_refresh_reuse_detections_total").increment()
            record(.refreshTokenReused, account: userID, outcome: "every session of the family ended")
            throw ServiceError.sessionRejected
        case .granted(let record, let isAnonymous, let createdAt):
            return try await session((successor, record), createdAt: createdAt, isAnonymous: isAnonymous)
        }
    }

    /// Ends the session this refresh token belongs to (its whole rotation family).
    public func logout(refreshToken: String) async throws {
        try await store.revokeFamily(ofTokenHash: Secrets.hash(refreshToken), now: clock.now())
    }

    // MARK: Internals

    /// The user behind a genuine, unexpired access token whose account still exists and
    /// whose session was not ended: logged out, or its family revoked by reuse detection,
    /// its access tokens stop at once, not a day later (ASVS 3.3.1).
    func authenticate(_ accessToken: String) async throws -> (userID: String, isAnonymous: Bool) {
        let claims = try await accessTokens.verify(accessToken, now: clock.now())
        try await requireLive(claims)
        return (claims.sub.value, claims.isAnonymous.value)
    }

    /// Refuses (401) the claims of a session that has ended or an account that is gone.
    func requireLive(_ claims: AccessClaims) async throws {
        guard try await store.sessionIsLive(userID: claims.sub.value, family: claims.fid) else { throw ServiceError.sessionRejected }
    }

    /// A new refresh token for `userID` in a new family, not yet stored.
    func newRefreshToken(for userID: String, policy: TokenPolicy) -> (token: String, record: NewRefreshToken) {
        let token = Secrets.token(prefix: "rt_")
        return (
            token, NewRefreshToken(hash: Secrets.hash(token), userID: userID, family: Secrets.familyID(), now: clock.now(), policy: policy)
        )
    }

    /// Stores a new refresh token and signs an access token (a login: the account exists).
    func issue(userID: String, createdAt: Int64, isAnonymous: Bool, policy: TokenPolicy) async throws -> IssuedSession {
        let refresh = newRefreshToken(for: userID, policy: policy)
        try await store.addRefreshToken(refresh.record)
        return try await session(refresh, createdAt: createdAt, isAnonymous: isAnonymous)
    }

    /// The session a stored refresh token stands for, with a signed access token.
    func session(_ refresh: (token: String, record: NewRefreshToken), createdAt: Int64, isAnonymous: Bool) async throws -> IssuedSession {
        let now = refresh.record.createdAt
        let accessExpiry = now + refresh.record.policy.accessLifetime
        let access = try await accessTokens.sign(
            userID: refresh.record.userID, family: refresh.record.family, isAnonymous: isAnonymous, issuedAt: now, expiresAt: accessExpiry)
        return IssuedSession(
            userID: refresh.record.userID, accessToken: access, accessExpiresAt: accessExpiry, refreshToken: refresh.token,
            refreshExpiresAt: refresh.record.expiresAt, isAnonymous: isAnonymous, createdAt: createdAt, issuedAt: now)
    }

    /// Counts one event against the limit `name` for a client address or an account
    /// (one of them), refusing it when over, and says so in the security log.
    func limit(_ name: String, address: String? = nil, account: String? = nil, _ rule: RateLimit, now: Int64) async throws {
        try await limits([(name, address, account)], rule, now: now)
    }

    /// Several limits under one rule counted at once (one round trip on PostgreSQL); the
    /// first one over refuses. With `liveSession`, the caller's access token is checked
    /// but its session not yet: the session's check rides in the same round trip, and a
    /// session that ended is refused (401) with nothing counted, as `authenticate` first
    /// would have.
    func limits(
        _ checks: [(name: String, address: String?, account: String?)], _ rule: RateLimit, now: Int64, liveSession: AccessClaims? = nil
    ) async throws {
        let keys = checks.map { "\($0.name):\($0.address ?? $0.account ?? "")" }
        let waits: [Int64?]
        if let liveSession {
            guard
                let counted = try await store.hitRateLimits(
                    keys, rule, now: now, forLiveSession: liveSession.sub.value, family: liveSession.fid)
            else { throw ServiceError.sessionRejected }
            waits = counted
        } else {
            waits = try await store.hitRateLimits(keys, rule, now: now)
        }
        guard let (check, wait) = zip(checks, waits).lazy.compactMap({ check, wait in wait.map { (check, $0) } }).first else { return }
        Counter(label: "onboard_rate_limit_refusals_total", dimensions: [("limit", check.name)]).increment()
        record(.rateLimited, account: check.account, address: check.address, outcome: "\(check.name) limit: refused for \(wait) s")
        throw Self.tooMany(wait)
    }

    /// `weight` counted at once against one limit (a batch's events or bytes), refused
    /// as `limits` refuses: the metric, the security log's line (naming `address` when the
    /// limit is a client address's), 429.
    func limit(_ name: String, key: String, _ rule: RateLimit, weight: Int, now: Int64, address: String? = nil) async throws {
        guard let wait = try await store.hitRateLimit("\(name):\(key)", rule, weight: weight, now: now) else { return }
        Counter(label: "onboard_rate_limit_refusals_total", dimensions: [("limit", name)]).increment()
        record(.rateLimited, address: address, outcome: "\(name) limit: refused for \(wait) s")
        throw Self.tooMany(wait)
    }

    static func tooMany(_ wait: Int64) -> ServiceError {
        let seconds = Int(max(1, wait))
        return ServiceError(.rateLimited, "Too many attempts. Please wait \(seconds) seconds and try again.", retryAfter: seconds)
    }
}

/// The keys a store keeps: the access tokens' signing secret and the mock identity
/// provider's private key (raw).
public struct ServiceKeys: Sendable {
    public var signing: [UInt8]
    public var identityProvider: [UInt8]

    public init(signing: [UInt8], identityProvider: [UInt8]) {
        self.signing = signing
        self.identityProvider = identityProvider
    }

    /// Made once per store and kept there: processes sharing the store agree on them.
    public static func stored(in store: any ServiceStore) async throws -> ServiceKeys {
        let fresh = ServiceKeys.fresh()
        return ServiceKeys(
            signing: try await store.storedKey(named: "access", fresh: fresh.signing),
            identityProvider: try await store.storedKey(named: "mock-idp", fresh: fresh.identityProvider))
    }

    /// New keys, kept only if the store has none yet.
    public static func fresh() -> ServiceKeys {
        var generator = SystemRandomNumberGenerator()
        return ServiceKeys(
            signing: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) },
            identityProvider: [UInt8](P256.Signing.PrivateKey().rawRepresentation))
    }
}
