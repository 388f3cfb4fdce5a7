import Foundation
import Logging
import OnboardService
import PostgresNIO
import ServiceAPI

/// Refresh tokens in PostgreSQL: added, rotated once across instances (`FOR UPDATE`), and
/// revoked a family at a time when a spent one comes back.
extension PostgresStore {
    public func addRefreshToken(_ token: NewRefreshToken) async throws {
        try await transaction { db in try await Self.insert(token, db, self.logger) }
    }

    public func rotateRefreshToken(hash: String, now: Int64, grace: Int64, successorHash: String) async throws -> Rotation {
        try await transaction { db in
            // Locked: two instances rotating one token at once take turns.
            let rows = try await db.query(
                """
                SELECT t.user_id, t.family_id, t.expires_at, t.revoked_at, t.rotated_at,
                       t.access_lifetime, t.refresh_lifetime, u.created_at, u.is_anonymous
                FROM refresh_tokens t JOIN users u ON u.id = t.user_id
                WHERE t.token_hash = \(hash) FOR UPDATE OF t
                """, logger: self.logger)
            var found: (String, String, Int64?, Int64?, Int64?, Int64, Int64?, Int64, Bool)?
            for try await row in rows.decode((String, String, Int64?, Int64?, Int64?, Int64, Int64?, Int64, Bool).self) { found = row }
            guard let (userID, family, expiresAt, revokedAt, rotatedAt, accessLifetime, refreshLifetime, createdAt, anonymous) = found
            else { return .rejected }
            if revokedAt != nil || (expiresAt.map { $0 <= now } ?? false) { return .rejected }
            if let rotatedAt, now - rotatedAt > grace {
                // Reuse of a rotated token: assume it leaked, end every session of the family.
                try await db.query(
                    "UPDATE refresh_tokens SET revoked_at = \(now) WHERE family_id = \(family) AND revoked_at IS NULL", logger: self.logger)
                return .reused(userID: userID)
            }
            try await db.query(
                "UPDATE refresh_tokens SET rotated_at = COALESCE(rotated_at, \(now)) WHERE token_hash = \(hash)", logger: self.logger)
            let policy = TokenPolicy(accessLifetime: accessLifetime, refreshLifetime: refreshLifetime)
            let successor = NewRefreshToken(hash: successorHash, userID: userID, family: family, now: now, policy: policy)
            try await Self.insert(successor, db, self.logger)
            return .granted(successor, isAnonymous: anonymous, createdAt: createdAt)
        }
    }

    public func revokeFamily(ofTokenHash hash: String, now: Int64) async throws {
        try await transaction { db in
            try await db.query(
                """
                UPDATE refresh_tokens SET revoked_at = \(now)
                WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = \(hash))
                """, logger: self.logger)
        }
    }

    static func insert(_ token: NewRefreshToken, _ db: PostgresConnection, _ logger: Logger) async throws {
        try await db.query(
            """
            INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at, access_lifetime, refresh_lifetime)
            VALUES (\(token.hash), \(token.userID), \(token.family), \(token.createdAt), \(token.expiresAt),
                    \(token.policy.accessLifetime), \(token.policy.refreshLifetime))
            """, logger: logger)
    }
}
