import GRDB
import OnboardService
import ServiceAPI

/// Refresh tokens in SQLite, in rotation families.
extension SQLiteStore {
    public func addRefreshToken(_ token: NewRefreshToken) async throws {
        try await write { db in try Self.insert(token, in: db) }
    }

    public func rotateRefreshToken(hash: String, now: Int64, grace: Int64, successorHash: String) async throws -> Rotation {
        try await write { db in
            guard
                let row = try Row.fetchOne(
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
                try db.execute(
                    sql: "UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL", arguments: [now, family])
                return .reused(userID: row["user_id"])
            }
            try db.execute(
                sql: "UPDATE refresh_tokens SET rotated_at = COALESCE(rotated_at, ?) WHERE token_hash = ?", arguments: [now, hash])
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

    static func insert(_ token: NewRefreshToken, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at, access_lifetime, refresh_lifetime)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                token.hash, token.userID, token.family, token.createdAt, token.expiresAt,
                token.policy.accessLifetime, token.policy.refreshLifetime,
            ])
    }
}
