import GRDB

/// The service's behaviour: anonymous accounts, fictional names, tokens and content.
/// One of it runs in process (the embedded mock) or behind HTTP. Each change is one
/// write transaction, so two processes sharing the file never see half a change.
public final class OnboardService: Sendable {
    private let database: DatabaseQueue
    public let clock: any ServiceClock
    /// How many names an anonymous sign-in offers.
    public static let nameOptionCount = 3

    public init(database: DatabaseQueue, clock: any ServiceClock = SystemClock()) {
        self.database = database
        self.clock = clock
    }

    public func health() async throws -> String { "ok" }

    // MARK: Anonymous accounts

    /// Creates an anonymous account with a server-side `created_at` and offers three
    /// names no other user has been offered.
    public func signInAnonymously(policy: TokenPolicy) async throws -> AnonymousSignIn {
        let now = clock.now()
        return try await write { db in
            let userID = Secrets.userID()
            try db.execute(
                sql: "INSERT INTO users (id, created_at, is_anonymous) VALUES (?, ?, 1)",
                arguments: [userID, now])
            let names = try Self.reserveNames(for: userID, now: now, in: db)
            let session = try Self.issue(userID: userID, createdAt: now, isAnonymous: true, policy: policy, now: now, in: db)
            return AnonymousSignIn(session: session, nameOptions: names)
        }
    }

    /// Finalises the anonymous profile with one of the names offered to this user.
    public func chooseName(accessToken: String, name: String) async throws -> Profile {
        let now = clock.now()
        return try await write { db in
            let userID = try Self.user(forAccessToken: accessToken, now: now, in: db)
            let offered = try String.fetchOne(
                db, sql: "SELECT name FROM name_offers WHERE name = ? AND user_id = ?", arguments: [name, userID])
            guard offered != nil else {
                throw ServiceError(.invalidInput, "Please pick one of the names offered to you.")
            }
            try db.execute(
                sql: "UPDATE users SET display_name = ?, onboarding_complete = 1 WHERE id = ?",
                arguments: [name, userID])
            return Profile(userID: userID, displayName: name)
        }
    }

    public func profile(accessToken: String) async throws -> Profile {
        let now = clock.now()
        return try await read { db in
            let userID = try Self.user(forAccessToken: accessToken, now: now, in: db)
            let name = try String.fetchOne(db, sql: "SELECT display_name FROM users WHERE id = ?", arguments: [userID])
            return Profile(userID: userID, displayName: name)
        }
    }

    // MARK: Sessions

    /// Rotates the refresh token: the old one is revoked and a new pair issued with the
    /// same lifetimes. An unknown, revoked or expired token is rejected.
    public func refresh(refreshToken: String) async throws -> IssuedSession {
        let now = clock.now()
        return try await write { db in
            let hash = Secrets.hash(refreshToken)
            // One conditional statement: two racing refreshes cannot both succeed.
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    UPDATE refresh_tokens SET revoked_at = ?
                    WHERE token_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)
                    RETURNING user_id, access_lifetime, refresh_lifetime
                    """,
                arguments: [now, hash, now])
            else { throw ServiceError.sessionRejected }
            let userID: String = row["user_id"]
            let policy = TokenPolicy(accessLifetime: row["access_lifetime"], refreshLifetime: row["refresh_lifetime"])
            guard let user = try Row.fetchOne(db, sql: "SELECT created_at, is_anonymous FROM users WHERE id = ?", arguments: [userID])
            else { throw ServiceError.sessionRejected }
            return try Self.issue(
                userID: userID, createdAt: user["created_at"], isAnonymous: user["is_anonymous"],
                policy: policy, now: now, in: db)
        }
    }

    /// Revokes every session of a user (their refresh and access tokens).
    public func revokeSessions(userID: String) async throws {
        let now = clock.now()
        try await write { db in
            try db.execute(sql: "UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", arguments: [now, userID])
            try db.execute(sql: "DELETE FROM access_tokens WHERE user_id = ?", arguments: [userID])
        }
    }

    // MARK: Content

    /// A random motivational message for Home.
    public func motivation(accessToken: String) async throws -> String {
        let now = clock.now()
        _ = try await read { db in try Self.user(forAccessToken: accessToken, now: now, in: db) }
        return WordLibrary.motivations.randomElement()!
    }

    // MARK: Internals

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await translatingErrors { try await database.write(body) }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
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

    static func user(forAccessToken token: String, now: Int64, in db: Database) throws -> String {
        guard let userID = try String.fetchOne(
            db, sql: "SELECT user_id FROM access_tokens WHERE token_hash = ? AND expires_at > ?",
            arguments: [Secrets.hash(token), now])
        else { throw ServiceError.sessionRejected }
        return userID
    }

    static func issue(userID: String, createdAt: Int64, isAnonymous: Bool, policy: TokenPolicy, now: Int64, in db: Database) throws -> IssuedSession {
        let access = Secrets.token(prefix: "at_")
        let refresh = Secrets.token(prefix: "rt_")
        let accessExpiry = now + policy.accessLifetime
        let refreshExpiry = policy.refreshLifetime.map { now + $0 }
        try db.execute(
            sql: "INSERT INTO access_tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)",
            arguments: [Secrets.hash(access), userID, accessExpiry])
        try db.execute(
            sql: """
                INSERT INTO refresh_tokens (token_hash, user_id, created_at, expires_at, access_lifetime, refresh_lifetime)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [Secrets.hash(refresh), userID, now, refreshExpiry, policy.accessLifetime, policy.refreshLifetime])
        return IssuedSession(
            userID: userID, accessToken: access, accessExpiresAt: accessExpiry, refreshToken: refresh,
            refreshExpiresAt: refreshExpiry, isAnonymous: isAnonymous, createdAt: createdAt, issuedAt: now)
    }

    /// Reserves names service-wide: a name offered to one user is never offered to another.
    static func reserveNames(for userID: String, now: Int64, in db: Database) throws -> [String] {
        var names: [String] = []
        var attempts = 0
        while names.count < nameOptionCount {
            attempts += 1
            var candidate = "\(WordLibrary.adjectives.randomElement()!) \(WordLibrary.nouns.randomElement()!)"
            // When plain pairs grow scarce, a number keeps names unique without bound.
            if attempts > 40 { candidate += " \(Int.random(in: 2...9999))" }
            let inserted = try String.fetchOne(
                db,
                sql: "INSERT INTO name_offers (name, user_id, offered_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING name",
                arguments: [candidate, userID, now])
            if let inserted { names.append(inserted) }
        }
        return names
    }
}
