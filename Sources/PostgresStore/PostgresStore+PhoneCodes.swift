import Foundation
import Logging
import OnboardService
import PostgresNIO
import ServiceAPI

/// SMS codes in PostgreSQL.
extension PostgresStore {
    public func storePhoneCode(
        _ code: PhoneCode, resendAfter: Int64, limit: RateLimitHit, outbox: OutboxEntry?
    ) async throws -> PhoneCodeStored {
        try await transaction { db in
            if let sentAt = try await db.first(
                "SELECT sent_at FROM phone_codes WHERE phone = \(code.phone) FOR UPDATE", as: Int64.self, logger: self.logger),
                code.sentAt - sentAt < resendAfter
            {
                return .resendIn(resendAfter - (code.sentAt - sentAt))
            }
            if let wait = try await Self.hit([limit.key], limit.rule, now: code.sentAt, db, self.logger).first ?? nil {
                return .limited(wait)
            }
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

    public func spendPhoneCode(
        phone: String, codeHash: String, now: Int64, maximumAttempts: Int, token: NewRefreshToken
    ) async throws -> PhoneCodeOutcome {
        try await transaction { db in
            let rows = try await db.query(
                "SELECT code_hash, expires_at, attempts FROM phone_codes WHERE phone = \(phone) FOR UPDATE", logger: self.logger)
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
                as: String.self, logger: self.logger) != nil
            {
                user = SignedInUser(userID: token.userID, createdAt: now, isNew: true)
            } else {
                let existing = try await db.query("SELECT id, created_at FROM users WHERE phone = \(phone)", logger: self.logger)
                for try await (id, createdAt) in existing.decode((String, Int64).self) {
                    user = SignedInUser(userID: id, createdAt: createdAt, isNew: false)
                }
            }
            guard let user else { throw ServiceError(.serverError, "The phone's account could not be found or made.") }
            try await Self.insert(token.granted(to: user.userID), db, self.logger)
            return .signedIn(user)
        }
    }
}
