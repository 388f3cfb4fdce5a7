import GRDB
import ServiceAPI
import Synchronization

/// The service's behaviour: accounts, sessions, tokens, names and content. One of it runs
/// in process (the embedded mock) or behind HTTP (`onboard-server`). Each change is one
/// write transaction (SQLite's write lock), so two processes sharing the file, or two
/// racing requests, never see half a change.
public final class OnboardService: Sendable {
    let database: DatabaseQueue
    public let clock: any ServiceClock
    public let settings: ServiceSettings
    let accessTokens: AccessTokens
    let identityProvider: MockIdentityProvider
    let limiter = RateLimiter()
    let configOverrides = Mutex<[String: FieldValue]>([:])
    /// How many names an anonymous sign-in offers.
    public static let nameOptionCount = 3

    public init(database: DatabaseQueue, clock: any ServiceClock = SystemClock(), settings: ServiceSettings = ServiceSettings()) throws {
        self.database = database
        self.clock = clock
        self.settings = settings
        accessTokens = AccessTokens(secret: try ServiceDatabase.signingSecret(in: database))
        identityProvider = MockIdentityProvider(privateKey: try ServiceDatabase.identityProviderKey(in: database))
    }

    public func health() async throws -> String { "ok" }

    // MARK: Sessions

    /// Rotates a refresh token. Within the grace window a just-rotated token still works
    /// (a lost reply, two terminals); reused after it, the whole family is revoked.
    public func refresh(refreshToken: String) async throws -> IssuedSession {
        let now = clock.now()
        let grace = settings.refreshGrace
        let issued: Result<(user: String, anonymous: Bool, created: Int64, policy: TokenPolicy, family: String), ServiceError> = try await write { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT t.user_id, t.family_id, t.expires_at, t.revoked_at, t.rotated_at,
                           t.access_lifetime, t.refresh_lifetime, u.created_at, u.is_anonymous
                    FROM refresh_tokens t JOIN users u ON u.id = t.user_id
                    WHERE t.token_hash = ?
                    """,
                arguments: [Secrets.hash(refreshToken)])
            else { return .failure(.sessionRejected) }
            let family: String = row["family_id"]
            let expiresAt: Int64? = row["expires_at"]
            let revokedAt: Int64? = row["revoked_at"]
            let rotatedAt: Int64? = row["rotated_at"]
            if revokedAt != nil || (expiresAt.map { $0 <= now } ?? false) { return .failure(.sessionRejected) }
            if let rotatedAt, now - rotatedAt > grace {
                // Reuse of a rotated token: assume it leaked, end every session of the family.
                try db.execute(sql: "UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL", arguments: [now, family])
                return .failure(.sessionRejected)
            }
            try db.execute(
                sql: "UPDATE refresh_tokens SET rotated_at = COALESCE(rotated_at, ?) WHERE token_hash = ?",
                arguments: [now, Secrets.hash(refreshToken)])
            let policy = TokenPolicy(accessLifetime: row["access_lifetime"], refreshLifetime: row["refresh_lifetime"])
            return .success((row["user_id"], row["is_anonymous"], row["created_at"], policy, family))
        }
        let granted = try issued.get()
        return try await issue(
            userID: granted.user, createdAt: granted.created, isAnonymous: granted.anonymous,
            policy: granted.policy, family: granted.family)
    }

    /// Ends the session this refresh token belongs to (its whole rotation family).
    public func logout(refreshToken: String) async throws {
        let now = clock.now()
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE refresh_tokens SET revoked_at = ?
                    WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = ?)
                    """,
                arguments: [now, Secrets.hash(refreshToken)])
        }
    }

    // MARK: Internals

    /// The user behind a genuine, unexpired access token whose account still exists.
    func authenticate(_ accessToken: String) async throws -> (userID: String, isAnonymous: Bool) {
        let claims = try await accessTokens.verify(accessToken, now: clock.now())
        let userID = claims.sub.value
        let exists = try await read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID]) ?? false
        }
        guard exists else { throw ServiceError.sessionRejected }
        return (userID, claims.isAnonymous.value)
    }

    /// A new refresh token (stored hashed) in `family`, or a new family, and a signed
    /// access token.
    func issue(userID: String, createdAt: Int64, isAnonymous: Bool, policy: TokenPolicy, family: String? = nil) async throws -> IssuedSession {
        try await issue(userID: userID, createdAt: createdAt, isAnonymous: isAnonymous, policy: policy, family: family) { _ in }.session
    }

    /// As above, with `along` run first in the same transaction: a whole sign-in is one
    /// commit on the one writer.
    func issue<T: Sendable>(
        userID: String, createdAt: Int64, isAnonymous: Bool, policy: TokenPolicy, family: String? = nil,
        along: @escaping @Sendable (Database) throws -> T
    ) async throws -> (session: IssuedSession, along: T) {
        let now = clock.now()
        let refresh = Secrets.token(prefix: "rt_")
        let family = family ?? Secrets.randomHex(bytes: 16)
        let accessExpiry = now + policy.accessLifetime
        let refreshExpiry = policy.refreshLifetime.map { now + $0 }
        let result = try await write { db in
            let result = try along(db)
            try db.execute(
                sql: """
                    INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at, access_lifetime, refresh_lifetime)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [Secrets.hash(refresh), userID, family, now, refreshExpiry, policy.accessLifetime, policy.refreshLifetime])
            return result
        }
        let access = try await accessTokens.sign(userID: userID, isAnonymous: isAnonymous, issuedAt: now, expiresAt: accessExpiry)
        let session = IssuedSession(
            userID: userID, accessToken: access, accessExpiresAt: accessExpiry, refreshToken: refresh,
            refreshExpiresAt: refreshExpiry, isAnonymous: isAnonymous, createdAt: createdAt, issuedAt: now)
        return (session, result)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await translatingErrors { try await database.write(body) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await translatingErrors { try await database.read(body) }
    }

    /// Service errors pass through; anything the database throws becomes a server error.
    private func translatingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.serverError, "The service's database failed: \(error)")
        }
    }
}
