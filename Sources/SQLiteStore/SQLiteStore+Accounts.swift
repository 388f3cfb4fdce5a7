import GRDB
import OnboardService
import ServiceAPI

/// Accounts in SQLite: guests and their names, email accounts, phone and provider sign-ins
/// find theirs in their own files.
extension SQLiteStore {
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
                try db.execute(
                    sql: "UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", arguments: [now, userID])
                try Self.insert(token, in: db)
                return try String.fetchAll(db, sql: "SELECT name FROM name_offers WHERE user_id = ? ORDER BY rowid", arguments: [userID])
            }
            // Reserved service-wide: a name offered to one user is never offered to another.
            // One prepared INSERT per name tried: cheaper here than one statement over all
            // twelve candidates (measured; DECISIONS 42).
            let offer = try db.cachedStatement(
                sql: "INSERT INTO name_offers (name, user_id, offered_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
            var reservation = NameReservation(count: names.count, candidates: candidates)
            while let name = reservation.next() {
                try offer.execute(arguments: [name, userID, now])
                reservation.tried(name, reserved: db.changesCount == 1)
            }
            try Self.insert(token, in: db)
            return reservation.reserved
        }
    }

    public func chooseOfferedName(_ name: String, for userID: String) async throws -> ProfileRow? {
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

    public func createAccount(
        _ userID: String, at now: Int64, email: String, passwordHash: String, name: String, token: NewRefreshToken
    ) async throws -> Bool {
        try await write { db in
            let created =
                try String.fetchOne(
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
            // The guest's own sessions take a named account's lifetime: a
            // never-expiring guest token no longer stands for an account with a password.
            try db.execute(
                sql:
                    "UPDATE refresh_tokens SET refresh_lifetime = ?, expires_at = ? WHERE user_id = ? AND revoked_at IS NULL AND expires_at IS NULL",
                arguments: [token.policy.refreshLifetime, token.expiresAt, userID])
            try Self.insert(token, in: db)
            return .linked(createdAt: row["created_at"])
        }
    }

    public func socialUser(
        tokenID: String, tokenExpiry: Int64, provider: String, subject: String, email: String?, now: Int64, token: NewRefreshToken
    ) async throws -> SignedInUser? {
        try await write { db in
            // Accepted once: a replayed token (a stolen one, or a retried request) is refused.
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM used_id_tokens WHERE token_id = ?", arguments: [tokenID]) == nil
            else { return nil }
            try db.execute(sql: "DELETE FROM used_id_tokens WHERE expires_at < ?", arguments: [now])
            try db.execute(sql: "INSERT INTO used_id_tokens (token_id, expires_at) VALUES (?, ?)", arguments: [tokenID, tokenExpiry])
            if let row = try Row.fetchOne(
                db, sql: "SELECT id, created_at FROM users WHERE auth_provider = ? AND provider_subject = ?",
                arguments: [provider, subject])
            {
                let user = SignedInUser(userID: row["id"], createdAt: row["created_at"], isNew: false)
                try Self.insert(token.granted(to: user.userID), in: db)
                return user
            }
            // The provider's email is kept unless another account already has it.
            let emailFree =
                try email.map { try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE email = seal_key(?)", arguments: [$0]) == nil }
                ?? false
            try db.execute(
                sql:
                    "INSERT INTO users (id, created_at, is_anonymous, email, auth_provider, provider_subject) VALUES (?, ?, 0, seal_key(?), ?, ?)",
                arguments: [token.userID, now, emailFree ? email : nil, provider, subject])
            try Self.insert(token, in: db)
            return SignedInUser(userID: token.userID, createdAt: now, isNew: true)
        }
    }
}
