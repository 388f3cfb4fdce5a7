import Foundation
import OnboardService
import PostgresNIO
import ServiceAPI

/// Single-use things in PostgreSQL: phone codes, social ID tokens, invites.
extension PostgresStore {
    public func storePhoneCode(_ code: PhoneCode, resendAfter: Int64, limit: RateLimitHit, outbox: OutboxEntry?) async throws -> PhoneCodeStored {
        try await transaction { db in
            if let sentAt = try await db.first("SELECT sent_at FROM phone_codes WHERE phone = \(code.phone) FOR UPDATE", as: Int64.self, logger: self.logger),
               code.sentAt - sentAt < resendAfter {
                return .resendIn(resendAfter - (code.sentAt - sentAt))
            }
            if let wait = try await Self.hit([limit.key], limit.rule, now: code.sentAt, db, self.logger).first ?? nil { return .limited(wait) }
            try await db.query(
                """
                INSERT INTO phone_codes (phone, code_hash, sent_at, expires_at, attempts)
                VALUES (\(code.phone), \(code.hash), \(code.sentAt), \(code.expiresAt), 0)
                ON CONFLICT (phone) DO UPDATE SET code_hash = excluded.code_hash, sent_at = excluded.sent_at,
                    expires_at = excluded.expires_at, attempts = 0
                """, logger: self.logger)
            try await Self.recordOutbox(outbox, db, self.logger)
            return .stored
        }
    }

    public func spendPhoneCode(phone: String, codeHash: String, now: Int64, maximumAttempts: Int, token: NewRefreshToken) async throws -> PhoneCodeOutcome {
        try await transaction { db in
            let rows = try await db.query("SELECT code_hash, expires_at, attempts FROM phone_codes WHERE phone = \(phone) FOR UPDATE", logger: self.logger)
            var found: (String, Int64, Int32)?
            for try await row in rows.decode((String, Int64, Int32).self) { found = row }
            guard let (storedHash, expiresAt, attempts) = found else { return .noCode }
            if Int(attempts) >= maximumAttempts { return .tooManyAttempts }
            if expiresAt <= now { return .expired }
            guard codeHash == storedHash else {
                try await db.query("UPDATE phone_codes SET attempts = attempts + 1 WHERE phone = \(phone)", logger: self.logger)
                return .wrong(attemptsLeft: maximumAttempts - Int(attempts) - 1)
            }
            try await db.query("DELETE FROM phone_codes WHERE phone = \(phone)", logger: self.logger)
            var user: SignedInUser?
            if try await db.first(
                "INSERT INTO users (id, created_at, is_anonymous, phone, auth_provider) VALUES (\(token.userID), \(now), FALSE, \(phone), 'phone') ON CONFLICT DO NOTHING RETURNING id",
                as: String.self, logger: self.logger) != nil {
                user = SignedInUser(userID: token.userID, createdAt: now, isNew: true)
            } else {
                let existing = try await db.query("SELECT id, created_at FROM users WHERE phone = \(phone)", logger: self.logger)
                for try await (id, createdAt) in existing.decode((String, Int64).self) { user = SignedInUser(userID: id, createdAt: createdAt, isNew: false) }
            }
            guard let user else { throw ServiceError(.serverError, "The phone's account could not be found or made.") }
            try await Self.insert(token.granted(to: user.userID), db, self.logger)
            return .signedIn(user)
        }
    }

    public func socialUser(tokenID: String, tokenExpiry: Int64, provider: String, subject: String, email: String?, now: Int64, token: NewRefreshToken) async throws -> SignedInUser? {
        try await transaction { db in
            try await db.query("DELETE FROM used_id_tokens WHERE expires_at < \(now)", logger: self.logger)
            // Accepted once, by whichever instance gets there first.
            guard try await db.first(
                "INSERT INTO used_id_tokens (token_id, expires_at) VALUES (\(tokenID), \(tokenExpiry)) ON CONFLICT DO NOTHING RETURNING token_id",
                as: String.self, logger: self.logger) != nil
            else { return nil }
            let existing = try await db.query(
                "SELECT id, created_at FROM users WHERE auth_provider = \(provider) AND provider_subject = \(subject)", logger: self.logger)
            var found: SignedInUser?
            for try await (id, createdAt) in existing.decode((String, Int64).self) { found = SignedInUser(userID: id, createdAt: createdAt, isNew: false) }
            if let found {
                try await Self.insert(token.granted(to: found.userID), db, self.logger)
                return found
            }
            let userID = token.userID
            // The provider's email is kept unless another account already has it.
            let emailFree = try await email.asyncMap { try await db.first("SELECT 1 FROM users WHERE email = \($0)", as: Int32.self, logger: self.logger) == nil } ?? false
            try await db.query(
                """
                INSERT INTO users (id, created_at, is_anonymous, email, auth_provider, provider_subject)
                VALUES (\(userID), \(now), FALSE, \(emailFree ? email : nil), \(provider), \(subject))
                """, logger: self.logger)
            try await Self.insert(token, db, self.logger)
            return SignedInUser(userID: userID, createdAt: now, isNew: true)
        }
    }

    public func addChild(_ child: Child, by userID: String, now: Int64) async throws {
        try await transaction { db in
            try await db.query(
                "INSERT INTO children (id, name, birth_date, created_by, created_at) VALUES (\(child.id), \(child.name), \(child.birthDate), \(userID), \(now))",
                logger: self.logger)
            try await db.query("INSERT INTO child_members (child_id, user_id) VALUES (\(child.id), \(userID))", logger: self.logger)
        }
    }

    public func children(of userID: String) async throws -> [Child] {
        try await transaction { db in
            let rows = try await db.query(
                "SELECT c.id, c.name, c.birth_date FROM children c JOIN child_members m ON m.child_id = c.id WHERE m.user_id = \(userID) ORDER BY c.created_at, c.id",
                logger: self.logger)
            var children: [Child] = []
            for try await (id, name, birthDate) in rows.decode((String, String, String?).self) {
                children.append(Child(id: id, name: name, birthDate: birthDate))
            }
            return children
        }
    }

    public func createInvite(codeHash: String, childID: String, by userID: String, now: Int64, expiresAt: Int64, outbox: OutboxEntry?) async throws -> Bool {
        try await transaction { db in
            guard try await db.first(
                "SELECT 1 FROM child_members WHERE child_id = \(childID) AND user_id = \(userID)", as: Int32.self, logger: self.logger) != nil
            else { return false }
            try await db.query(
                "INSERT INTO invites (code_hash, child_id, created_by, created_at, expires_at) VALUES (\(codeHash), \(childID), \(userID), \(now), \(expiresAt))",
                logger: self.logger)
            try await Self.recordOutbox(outbox, db, self.logger)
            return true
        }
    }

    public func redeemInvite(codeHash: String, by userID: String, now: Int64) async throws -> InviteAcceptance? {
        // One statement: a conditional UPDATE (of redemptions racing on any instances, one
        // wins; the winner may redeem it again, a retry whose answer was lost, and gets the
        // child again), the membership, and what the answer shows, in one round trip.
        try await statement { db in
            var accepted: InviteAcceptance?
            for try await row in try await db.execute(InviteRedemptionStatement(now: now, userID: userID, codeHash: codeHash), logger: self.logger) {
                accepted = row
            }
            return accepted
        }
    }
}

extension PostgresStore {
    public func childAlreadyTracked(inviteCodeHash: String, by userID: String, now: Int64) async throws -> String? {
        try await statement { db in
            try await db.first(
                """
                SELECT children.name FROM invites
                JOIN child_members ON child_members.child_id = invites.child_id AND child_members.user_id = \(userID)
                JOIN children ON children.id = invites.child_id
                WHERE invites.code_hash = \(inviteCodeHash) AND invites.used_at IS NULL AND invites.expires_at > \(now)
                """, as: String.self, logger: self.logger)
        }
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
