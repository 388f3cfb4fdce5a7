import GRDB
import OnboardService
import ServiceAPI

/// SMS codes in SQLite.
extension SQLiteStore {
    public func storePhoneCode(
        _ code: PhoneCode, resendAfter: Int64, limit: RateLimitHit, outbox: OutboxEntry?
    ) async throws -> PhoneCodeStored {
        let limiter = self.limiter
        return try await write { db in
            if let sentAt = try Int64.fetchOne(
                db, sql: "SELECT sent_at FROM phone_codes WHERE phone = seal_key(?)", arguments: [code.phone]),
                code.sentAt - sentAt < resendAfter
            {
                return .resendIn(resendAfter - (code.sentAt - sentAt))
            }
            if let wait = limiter.hit(limit.key, limit.rule, now: code.sentAt) { return .limited(wait) }
            try db.execute(
                sql: """
                    INSERT INTO phone_codes (phone, code_hash, sent_at, expires_at, attempts) VALUES (seal_key(?), ?, ?, ?, 0)
                    ON CONFLICT(phone) DO UPDATE SET code_hash = excluded.code_hash, sent_at = excluded.sent_at,
                        expires_at = excluded.expires_at, attempts = 0
                    """,
                arguments: [code.phone, code.hash, code.sentAt, code.expiresAt])
            try Self.recordOutbox(outbox, in: db)
            return .stored
        }
    }

    public func spendPhoneCode(
        phone: String, codeHash: String, now: Int64, maximumAttempts: Int, token: NewRefreshToken
    ) async throws -> PhoneCodeOutcome {
        try await write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT code_hash, expires_at, attempts FROM phone_codes WHERE phone = seal_key(?)", arguments: [phone])
            else { return .noCode }
            let attempts: Int = row["attempts"]
            if attempts >= maximumAttempts { return .tooManyAttempts }
            if (row["expires_at"] as Int64) <= now { return .expired }
            guard codeHash == (row["code_hash"] as String) else {
                try db.execute(sql: "UPDATE phone_codes SET attempts = attempts + 1 WHERE phone = seal_key(?)", arguments: [phone])
                return .wrong(attemptsLeft: maximumAttempts - attempts - 1)
            }
            try db.execute(sql: "DELETE FROM phone_codes WHERE phone = seal_key(?)", arguments: [phone])
            let user: SignedInUser
            if let existing = try Row.fetchOne(db, sql: "SELECT id, created_at FROM users WHERE phone = seal_key(?)", arguments: [phone]) {
                user = SignedInUser(userID: existing["id"], createdAt: existing["created_at"], isNew: false)
            } else {
                try db.execute(
                    sql: "INSERT INTO users (id, created_at, is_anonymous, phone, auth_provider) VALUES (?, ?, 0, seal_key(?), 'phone')",
                    arguments: [token.userID, now, phone])
                user = SignedInUser(userID: token.userID, createdAt: now, isNew: true)
            }
            try Self.insert(token.granted(to: user.userID), in: db)
            return .signedIn(user)
        }
    }
}
