import Foundation
import GRDB
import ServiceAPI

/// The service's store in one SQLite file (GRDB). Each operation is atomic on SQLite's
/// single writer, across processes sharing the file too: its own savepoint in a
/// transaction it may share with writes that came at the same moment (`GroupCommit`).
/// Rate limits are counted in this process's memory.
public final class SQLiteStore: ServiceStore {
    let queue: DatabaseQueue
    let limiter = RateLimiter()
    private let writes: GroupCommit

    public init(_ queue: DatabaseQueue) {
        self.queue = queue
        writes = GroupCommit(queue, checkpointer: Checkpointer(path: queue.path))
    }

    /// One write, atomic, committed (with the writes that came at the same time) before
    /// it returns.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await translatingErrors { try await writes.write(body) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await translatingErrors { try await queue.read(body) }
    }

    /// Service errors pass through; anything the database throws becomes a server error.
    private func translatingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError.databaseFailed("\(error)")
        }
    }

    // MARK: Keys

    public func storedKey(named name: String, fresh: [UInt8]) async throws -> [UInt8] {
        try ServiceDatabase.storedKey(named: name, in: queue, fresh: fresh)
    }

    // MARK: Accounts

    public func createGuest(_ userID: String, at now: Int64, names: NameDraw, token: NewRefreshToken) async throws -> [String] {
        // Drawn before the write: the writer is the one thread every sign-in waits on.
        let candidates = names.candidates()
        return try await write { db in
            try db.cachedStatement(sql: "INSERT INTO users (id, created_at, is_anonymous) VALUES (?, ?, 1) ON CONFLICT (id) DO NOTHING")
                .execute(arguments: [userID, now])
            if db.changesCount == 0 {
                // The same idempotency key again, its first answer lost: the same guest, a new session.
                guard try Bool.fetchOne(db, sql: "SELECT is_anonymous FROM users WHERE id = ?", arguments: [userID]) == true
                else { throw ServiceError(.conflict, "This Idempotency-Key was already used for another account.") }
                try db.execute(sql: "UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", arguments: [now, userID])
                try Self.insert(token, in: db)
                return try String.fetchAll(db, sql: "SELECT name FROM name_offers WHERE user_id = ? ORDER BY rowid", arguments: [userID])
            }
            // Reserved service-wide: a name offered to one user is never offered to another.
            // The first free candidates in order, one prepared INSERT each: cheaper here
            // than one statement over all twelve (measured; DECISIONS 42). A rare shortfall,
            // one fresh draw at a time.
            let offer = try db.cachedStatement(sql: "INSERT INTO name_offers (name, user_id, offered_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
            var reserved: [String] = []
            for candidate in candidates where reserved.count < names.count {
                try offer.execute(arguments: [candidate, userID, now])
                if db.changesCount == 1 { reserved.append(candidate) }
            }
            if reserved.count < names.count {
                var draw = NameDraw(count: names.count, avoiding: reserved)
                while reserved.count < names.count {
                    let candidate = draw.next()
                    try offer.execute(arguments: [candidate, userID, now])
                    if db.changesCount == 1 {
                        reserved.append(candidate)
                        draw.taken()
                    } else {
                        draw.collided()
                    }
                }
            }
            try Self.insert(token, in: db)
            return reserved
        }
    }

    public func chooseOfferedName(_ name: String, for userID: String) async throws -> Profile? {
        try await write { db in
            let offered = try String.fetchOne(
                db, sql: "SELECT name FROM name_offers WHERE name = ? AND user_id = ?", arguments: [name, userID])
            guard offered != nil else { return nil }
            try db.execute(
                sql: "UPDATE users SET display_name = seal_key(?), display_key = seal_key(?), onboarding_complete = 1 WHERE id = ?",
                arguments: [name, NameKey.of(name), userID])
            return try Self.profile(of: userID, in: db)
        }
    }

    public func profile(of userID: String) async throws -> Profile {
        try await read { db in try Self.profile(of: userID, in: db) }
    }

    public func sessionIsLive(userID: String, family: String?) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)
                       AND (? IS NULL OR EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NULL))
                    """,
                arguments: [userID, family, family]) ?? false
        }
    }

    public func createAccount(_ userID: String, at now: Int64, email: String, passwordHash: String, name: String, token: NewRefreshToken) async throws -> Bool {
        try await write { db in
            let created = try String.fetchOne(
                db,
                sql: """
                    INSERT INTO users (id, created_at, is_anonymous, email, password_hash, name, display_name, display_key)
                    VALUES (?, ?, 0, seal_key(?), ?, seal(?), NULL, seal_key(?)) ON CONFLICT DO NOTHING RETURNING id
                    """,
                arguments: [userID, now, email, passwordHash, name, NameKey.of(name)]) != nil
            if created { try Self.insert(token, in: db) }
            return created
        }
    }

    public func credentials(email: String) async throws -> Credentials? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT id, created_at, password_hash FROM users WHERE email = seal_key(?)", arguments: [email])
                .map { Credentials(userID: $0["id"], createdAt: $0["created_at"], passwordHash: $0["password_hash"]) }
        }
    }

    public func linkEmail(to userID: String, email: String, passwordHash: String, token: NewRefreshToken) async throws -> LinkOutcome {
        try await write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT created_at, is_anonymous FROM users WHERE id = ?", arguments: [userID])
            else { return .noSuchUser }
            guard row["is_anonymous"] as Bool else { return .alreadyNamed }
            let taken = try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE email = seal_key(?)", arguments: [email]) ?? false
            guard !taken else { return .emailTaken }
            try db.execute(
                sql: "UPDATE users SET email = seal_key(?), password_hash = ?, is_anonymous = 0 WHERE id = ?",
                arguments: [email, passwordHash, userID])
            // The guest's own sessions take a named account's lifetime (issue 31): a
            // never-expiring guest token no longer stands for an account with a password.
            try db.execute(
                sql: "UPDATE refresh_tokens SET refresh_lifetime = ?, expires_at = ? WHERE user_id = ? AND revoked_at IS NULL AND expires_at IS NULL",
                arguments: [token.policy.refreshLifetime, token.expiresAt, userID])
            try Self.insert(token, in: db)
            return .linked(createdAt: row["created_at"])
        }
    }

    // MARK: Refresh tokens

    public func addRefreshToken(_ token: NewRefreshToken) async throws {
        try await write { db in try Self.insert(token, in: db) }
    }

    public func rotateRefreshToken(hash: String, now: Int64, grace: Int64, successorHash: String) async throws -> Rotation {
        try await write { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT t.user_id, t.family_id, t.expires_at, t.revoked_at, t.rotated_at,
                           t.access_lifetime, t.refresh_lifetime, u.created_at, u.is_anonymous
                    FROM refresh_tokens t JOIN users u ON u.id = t.user_id
                    WHERE t.token_hash = ?
                    """,
                arguments: [hash])
            else { return .rejected }
            let family: String = row["family_id"]
            let expiresAt: Int64? = row["expires_at"]
            let revokedAt: Int64? = row["revoked_at"]
            let rotatedAt: Int64? = row["rotated_at"]
            if revokedAt != nil || (expiresAt.map { $0 <= now } ?? false) { return .rejected }
            if let rotatedAt, now - rotatedAt > grace {
                // Reuse of a rotated token: assume it leaked, end every session of the family.
                try db.execute(sql: "UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL", arguments: [now, family])
                return .reused(userID: row["user_id"])
            }
            try db.execute(sql: "UPDATE refresh_tokens SET rotated_at = COALESCE(rotated_at, ?) WHERE token_hash = ?", arguments: [now, hash])
            let policy = TokenPolicy(accessLifetime: row["access_lifetime"], refreshLifetime: row["refresh_lifetime"])
            let successor = NewRefreshToken(hash: successorHash, userID: row["user_id"], family: family, now: now, policy: policy)
            try Self.insert(successor, in: db)
            return .granted(successor, isAnonymous: row["is_anonymous"], createdAt: row["created_at"])
        }
    }

    public func revokeFamily(ofTokenHash hash: String, now: Int64) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE refresh_tokens SET revoked_at = ?
                    WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = ?)
                    """,
                arguments: [now, hash])
        }
    }

    // MARK: Helpers

    static func insert(_ token: NewRefreshToken, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at, access_lifetime, refresh_lifetime)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [token.hash, token.userID, token.family, token.createdAt, token.expiresAt,
                        token.policy.accessLifetime, token.policy.refreshLifetime])
    }

    static func profile(of userID: String, in db: Database) throws -> Profile {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT unseal(display_name) AS display_name, unseal(name) AS name, unseal(email) AS email, unseal(phone) AS phone, is_anonymous
            FROM users WHERE id = ?
            """, arguments: [userID])
        else { throw ServiceError.sessionRejected }
        var fields = try fields(of: userID, in: db)
        let displayName: String? = row["display_name"] ?? row["name"]
        if row["is_anonymous"], displayName == nil {
            // A guest that has not picked yet: the names it was offered, so a device that
            // lost them (its progress) offers the same ones again.
            let offered = try String.fetchAll(db, sql: "SELECT name FROM name_offers WHERE user_id = ? ORDER BY rowid", arguments: [userID])
            if !offered.isEmpty { fields[Profile.nameOptionsField] = .list(offered) }
        }
        return Profile(
            userID: userID, displayName: displayName, email: row["email"], phone: row["phone"],
            isAnonymous: row["is_anonymous"], fields: fields)
    }

    static func fields(of userID: String, in db: Database) throws -> [String: FieldValue] {
        guard let text = try String.fetchOne(db, sql: "SELECT unseal(data) FROM profiles WHERE user_id = ?", arguments: [userID]) else { return [:] }
        return (try? JSONDecoder().decode([String: FieldValue].self, from: Data(text.utf8))) ?? [:]
    }

    static func recordOutbox(_ entry: OutboxEntry?, in db: Database) throws {
        guard let entry else { return }
        try db.execute(
            sql: "INSERT INTO outbox (kind, destination, code, created_at) VALUES (?, seal(?), ?, ?)",
            arguments: [entry.kind, entry.destination, entry.code, entry.createdAt])
    }
}
