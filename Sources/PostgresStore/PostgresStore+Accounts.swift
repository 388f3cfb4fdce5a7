import Foundation
import OnboardService
import PostgresNIO
import ServiceAPI

/// Accounts in PostgreSQL: guests and their offered names, email accounts, profiles as
/// read back, and the helpers the other parts share.
extension PostgresStore {
    /// A new guest in one statement: the user, the first names of the draw no one has
    /// been offered, and the refresh token, committed together in one round trip. A repeat
    /// of the same id (an idempotency key whose answer was lost) takes `repeated`.
    public func createGuest(_ userID: String, at now: Int64, names: NameDraw, token: NewRefreshToken) async throws -> [String] {
        let candidates = names.candidates()
        let created = try await statement { db in
            var answer: GuestStatement.Row = (false, [])
            let guest = GuestStatement(userID: userID, now: now, candidates: candidates, count: names.count, token: token)
            for try await row in try await db.execute(guest, logger: self.logger) { answer = row }
            return answer
        }
        guard created.created else { return try await repeated(userID, at: now, names: names, token: token) }
        // In the order of the draw, as they were inserted (and as a repeat reads them).
        let reserved = candidates.filter(created.names.contains)
        guard reserved.count < names.count else { return reserved }
        // Every candidate taken, or taken by a guest made at the same moment: more.
        return try await reserved + transaction { db in
            try await Self.reserveNames(names.count - reserved.count, avoiding: reserved, for: userID, at: now, db, self.logger)
        }
    }

    /// The same guest again, with a new session: its other tokens revoked, the names it
    /// was offered (made up to the full count, should a crash have left it short).
    private func repeated(_ userID: String, at now: Int64, names: NameDraw, token: NewRefreshToken) async throws -> [String] {
        try await transaction { db in
            guard try await db.first("SELECT is_anonymous FROM users WHERE id = \(userID)", as: Bool.self, logger: self.logger) == true
            else { throw ServiceError(.conflict, "This Idempotency-Key was already used for another account.") }
            try await db.query("UPDATE refresh_tokens SET revoked_at = \(now) WHERE user_id = \(userID) AND revoked_at IS NULL", logger: self.logger)
            try await Self.insert(token, db, self.logger)
            let offered = try await db.all("SELECT name FROM name_offers WHERE user_id = \(userID) ORDER BY offered_order", as: String.self, logger: self.logger)
            guard offered.count < names.count else { return offered }
            return offered + (try await Self.reserveNames(names.count - offered.count, avoiding: offered, for: userID, at: now, db, self.logger))
        }
    }

    /// Names for `userID` one at a time, none sharing a word with `avoiding`.
    static func reserveNames(_ count: Int, avoiding: [String], for userID: String, at now: Int64, _ db: PostgresConnection, _ logger: Logger)
        async throws -> [String]
    {
        var draw = NameDraw(count: count, avoiding: avoiding)
        var reserved: [String] = []
        while reserved.count < count {
            let candidate = draw.next()
            if let inserted = try await db.first(
                "INSERT INTO name_offers (name, user_id, offered_at) VALUES (\(candidate), \(userID), \(now)) ON CONFLICT DO NOTHING RETURNING name",
                as: String.self, logger: logger)
            {
                reserved.append(inserted)
                draw.taken()
            } else {
                draw.collided()
            }
        }
        return reserved
    }

    public func chooseOfferedName(_ name: String, for userID: String) async throws -> Profile? {
        try await transaction { db in
            guard try await db.first("SELECT name FROM name_offers WHERE name = \(name) AND user_id = \(userID)", as: String.self, logger: self.logger) != nil
            else { return nil }
            try await db.query(
                "UPDATE users SET display_name = \(name), display_key = \(NameKey.of(name)), onboarding_complete = TRUE WHERE id = \(userID)",
                logger: self.logger)
            return try await Self.profile(of: userID, db, self.logger)
        }
    }

    public func profile(of userID: String) async throws -> Profile {
        try await transaction { db in try await Self.profile(of: userID, db, self.logger) }
    }

    public func sessionIsLive(userID: String, family: String?) async throws -> Bool {
        try await statement { db in
            var live = false
            for try await row in try await db.execute(LiveSessionStatement(userID: userID, family: family), logger: self.logger) { live = row }
            return live
        }
    }

    public func createAccount(_ userID: String, at now: Int64, email: String, passwordHash: String, name: String, token: NewRefreshToken) async throws -> Bool {
        try await transaction { db in
            let created = try await db.first(
                """
                INSERT INTO users (id, created_at, is_anonymous, email, password_hash, name, display_key)
                VALUES (\(userID), \(now), FALSE, \(email), \(passwordHash), \(name), \(NameKey.of(name))) ON CONFLICT DO NOTHING RETURNING id
                """, as: String.self, logger: self.logger) != nil
            if created { try await Self.insert(token, db, self.logger) }
            return created
        }
    }

    public func credentials(email: String) async throws -> Credentials? {
        try await transaction { db in
            let rows = try await db.query("SELECT id, created_at, password_hash FROM users WHERE email = \(email)", logger: self.logger)
            var found: Credentials?
            for try await (id, createdAt, hash) in rows.decode((String, Int64, String?).self) {
                found = Credentials(userID: id, createdAt: createdAt, passwordHash: hash)
            }
            return found
        }
    }

    public func linkEmail(to userID: String, email: String, passwordHash: String, token: NewRefreshToken) async throws -> LinkOutcome {
        try await transaction(onUniqueViolation: LinkOutcome.emailTaken) { db in
            let rows = try await db.query("SELECT created_at, is_anonymous FROM users WHERE id = \(userID) FOR UPDATE", logger: self.logger)
            var found: (Int64, Bool)?
            for try await row in rows.decode((Int64, Bool).self) { found = row }
            guard let (createdAt, anonymous) = found else { return .noSuchUser }
            guard anonymous else { return .alreadyNamed }
            if try await db.first("SELECT 1 FROM users WHERE email = \(email)", as: Int32.self, logger: self.logger) != nil { return .emailTaken }
            try await db.query(
                "UPDATE users SET email = \(email), password_hash = \(passwordHash), is_anonymous = FALSE WHERE id = \(userID)",
                logger: self.logger)
            // The guest's own sessions take a named account's lifetime (see SQLiteStore).
            try await db.query(
                """
                UPDATE refresh_tokens SET refresh_lifetime = \(token.policy.refreshLifetime), expires_at = \(token.expiresAt)
                WHERE user_id = \(userID) AND revoked_at IS NULL AND expires_at IS NULL
                """, logger: self.logger)
            try await Self.insert(token, db, self.logger)
            return .linked(createdAt: createdAt)
        }
    }

    // MARK: Helpers

    static func insert(_ token: NewRefreshToken, _ db: PostgresConnection, _ logger: Logger) async throws {
        try await db.query(
            """
            INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at, access_lifetime, refresh_lifetime)
            VALUES (\(token.hash), \(token.userID), \(token.family), \(token.createdAt), \(token.expiresAt),
                    \(token.policy.accessLifetime), \(token.policy.refreshLifetime))
            """, logger: logger)
    }

    static func profile(of userID: String, _ db: PostgresConnection, _ logger: Logger) async throws -> Profile {
        let rows = try await db.query(
            "SELECT display_name, name, email, phone, is_anonymous FROM users WHERE id = \(userID)", logger: logger)
        var found: (String?, String?, String?, String?, Bool)?
        for try await row in rows.decode((String?, String?, String?, String?, Bool).self) { found = row }
        guard let (displayName, name, email, phone, anonymous) = found else { throw ServiceError.sessionRejected }
        // Only once the rows above are read to the end: a query started while another's
        // rows are still arriving on the connection waits behind it for ever.
        var fields = try await fields(of: userID, db, logger)
        if anonymous, displayName ?? name == nil {
            // A guest that has not picked yet: the names it was offered (see SQLiteStore).
            let offered = try await db.all(
                "SELECT name FROM name_offers WHERE user_id = \(userID) ORDER BY offered_order", as: String.self, logger: logger)
            if !offered.isEmpty { fields[Profile.nameOptionsField] = .list(offered) }
        }
        return Profile(
            userID: userID, displayName: displayName ?? name, email: email, phone: phone, isAnonymous: anonymous,
            fields: fields)
    }

    static func fields(of userID: String, _ db: PostgresConnection, _ logger: Logger) async throws -> [String: FieldValue] {
        guard let text = try await db.first("SELECT data FROM profiles WHERE user_id = \(userID)", as: String.self, logger: logger)
        else { return [:] }
        return (try? JSONDecoder().decode([String: FieldValue].self, from: Data(text.utf8))) ?? [:]
    }

    static func recordOutbox(_ entry: OutboxEntry?, _ db: PostgresConnection, _ logger: Logger) async throws {
        guard let entry else { return }
        try await db.query(
            "INSERT INTO outbox (kind, destination, code, created_at) VALUES (\(entry.kind), \(entry.destination), \(entry.code), \(entry.createdAt))",
            logger: logger)
    }
}
