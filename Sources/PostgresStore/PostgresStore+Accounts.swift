import Foundation
import Logging
import OnboardService
import PostgresNIO
import ServiceAPI

/// Accounts in PostgreSQL: guests and their offered names, email accounts, the accounts a
/// provider signs in to.
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
        return try await transaction { db in
            try await Self.reserveNames(NameReservation(count: names.count, reserved: reserved), for: userID, at: now, db, self.logger)
        }
    }

    /// The same guest again, with a new session: its other tokens revoked, the names it
    /// was offered (made up to the full count, should a crash have left it short).
    private func repeated(_ userID: String, at now: Int64, names: NameDraw, token: NewRefreshToken) async throws -> [String] {
        try await transaction { db in
            guard try await db.first("SELECT is_anonymous FROM users WHERE id = \(userID)", as: Bool.self, logger: self.logger) == true
            else { throw ServiceError(.conflict, "This Idempotency-Key was already used for another account.") }
            try await db.query(
                "UPDATE refresh_tokens SET revoked_at = \(now) WHERE user_id = \(userID) AND revoked_at IS NULL", logger: self.logger)
            try await Self.insert(token, db, self.logger)
            let offered = try await db.all(
                "SELECT name FROM name_offers WHERE user_id = \(userID) ORDER BY offered_order", as: String.self, logger: self.logger)
            guard offered.count < names.count else { return offered }
            return try await Self.reserveNames(
                NameReservation(count: names.count, reserved: offered), for: userID, at: now, db, self.logger)
        }
    }

    /// The rest of `reservation`'s names for `userID`, one INSERT each; all it reserved.
    static func reserveNames(
        _ reservation: NameReservation, for userID: String, at now: Int64, _ db: PostgresConnection, _ logger: Logger
    )
        async throws -> [String]
    {
        var reservation = reservation
        while let name = reservation.next() {
            let inserted = try await db.first(
                "INSERT INTO name_offers (name, user_id, offered_at) VALUES (\(name), \(userID), \(now)) ON CONFLICT DO NOTHING RETURNING name",
                as: String.self, logger: logger)
            reservation.tried(name, reserved: inserted != nil)
        }
        return reservation.reserved
    }

    public func chooseOfferedName(_ name: String, for userID: String) async throws -> ProfileRow? {
        try await transaction { db in
            guard
                try await db.first(
                    "SELECT name FROM name_offers WHERE name = \(name) AND user_id = \(userID)", as: String.self, logger: self.logger)
                    != nil
            else { return nil }
            try await db.query(
                "UPDATE users SET display_name = \(name), display_key = \(NameKey.of(name)), onboarding_complete = TRUE WHERE id = \(userID)",
                logger: self.logger)
            return try await Self.profile(of: userID, db, self.logger)
        }
    }

    public func sessionIsLive(userID: String, family: String?) async throws -> Bool {
        try await statement { db in
            var live = false
            for try await row in try await db.execute(LiveSessionStatement(userID: userID, family: family), logger: self.logger) {
                live = row
            }
            return live
        }
    }

    public func createAccount(
        _ userID: String, at now: Int64, email: String, passwordHash: String, name: String, token: NewRefreshToken
    ) async throws -> Bool {
        try await transaction { db in
            let created =
                try await db.first(
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
            if try await db.first("SELECT 1 FROM users WHERE email = \(email)", as: Int32.self, logger: self.logger) != nil {
                return .emailTaken
            }
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

    public func socialUser(
        tokenID: String, tokenExpiry: Int64, provider: String, subject: String, email: String?, now: Int64, token: NewRefreshToken
    ) async throws -> SignedInUser? {
        try await transaction { db in
            try await db.query("DELETE FROM used_id_tokens WHERE expires_at < \(now)", logger: self.logger)
            // Accepted once, by whichever instance gets there first.
            guard
                try await db.first(
                    "INSERT INTO used_id_tokens (token_id, expires_at) VALUES (\(tokenID), \(tokenExpiry)) ON CONFLICT DO NOTHING RETURNING token_id",
                    as: String.self, logger: self.logger) != nil
            else { return nil }
            let existing = try await db.query(
                "SELECT id, created_at FROM users WHERE auth_provider = \(provider) AND provider_subject = \(subject)", logger: self.logger)
            var found: SignedInUser?
            for try await (id, createdAt) in existing.decode((String, Int64).self) {
                found = SignedInUser(userID: id, createdAt: createdAt, isNew: false)
            }
            if let found {
                try await Self.insert(token.granted(to: found.userID), db, self.logger)
                return found
            }
            let userID = token.userID
            // The provider's email is kept unless another account already has it.
            let emailFree =
                try await email.asyncMap {
                    try await db.first("SELECT 1 FROM users WHERE email = \($0)", as: Int32.self, logger: self.logger) == nil
                } ?? false
            try await db.query(
                """
                INSERT INTO users (id, created_at, is_anonymous, email, auth_provider, provider_subject)
                VALUES (\(userID), \(now), FALSE, \(emailFree ? email : nil), \(provider), \(subject))
                """, logger: self.logger)
            try await Self.insert(token, db, self.logger)
            return SignedInUser(userID: userID, createdAt: now, isNew: true)
        }
    }
}
