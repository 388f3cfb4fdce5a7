import GRDB
import OnboardService
import ServiceAPI

/// Children and invites in SQLite.
extension SQLiteStore {
    public func addChild(_ child: Child, by userID: String, now: Int64) async throws {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO children (id, name, birth_date, created_by, created_at) VALUES (?, seal(?), seal(?), ?, ?)",
                arguments: [child.id, child.name, child.birthDate, userID, now])
            try db.execute(sql: "INSERT INTO child_members (child_id, user_id) VALUES (?, ?)", arguments: [child.id, userID])
        }
    }

    public func children(of userID: String) async throws -> [Child] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT c.id, unseal(c.name) AS name, unseal(c.birth_date) AS birth_date FROM children c JOIN child_members m ON m.child_id = c.id WHERE m.user_id = ? ORDER BY c.created_at, c.id",
                arguments: [userID]
            ).map { Child(id: $0["id"], name: $0["name"], birthDate: $0["birth_date"]) }
        }
    }

    public func createInvite(
        codeHash: String, childID: String, by userID: String, now: Int64, expiresAt: Int64, outbox: OutboxEntry?
    ) async throws -> Bool {
        try await write { db in
            let member =
                try Bool.fetchOne(db, sql: "SELECT 1 FROM child_members WHERE child_id = ? AND user_id = ?", arguments: [childID, userID])
                ?? false
            guard member else { return false }
            try db.execute(
                sql: "INSERT INTO invites (code_hash, child_id, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [codeHash, childID, userID, now, expiresAt])
            try Self.recordOutbox(outbox, in: db)
            return true
        }
    }

    public func redeemInvite(codeHash: String, by userID: String, now: Int64) async throws -> InviteRedemption? {
        try await write { db in
            // One conditional UPDATE: two racing redemptions cannot both win. The winner
            // may redeem it again (a retry whose answer was lost) and gets the child again;
            // someone who already tracks the child spends nothing.
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        UPDATE invites SET used_at = COALESCE(used_at, ?), used_by = ?
                        WHERE code_hash = ? AND expires_at > ? AND (used_by = ? OR (used_at IS NULL AND NOT EXISTS (
                            SELECT 1 FROM child_members WHERE child_id = invites.child_id AND user_id = ?)))
                        RETURNING child_id, created_by
                        """,
                    arguments: [now, userID, codeHash, now, userID, userID])
            else { return nil }
            let childID: String = row["child_id"]
            let grantedBy: String = row["created_by"]
            try db.execute(
                sql: "INSERT INTO child_members (child_id, user_id, granted_by) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [childID, userID, grantedBy])
            guard
                let child = try Row.fetchOne(
                    db, sql: "SELECT id, unseal(name) AS name, unseal(birth_date) AS birth_date FROM children WHERE id = ?",
                    arguments: [childID])
            else { return nil }
            let sharer = try Row.fetchOne(
                db,
                sql: "SELECT unseal(name) AS name, unseal(display_name) AS display_name, unseal(email) AS email FROM users WHERE id = ?",
                arguments: [grantedBy])
            return InviteRedemption(
                child: Child(id: child["id"], name: child["name"], birthDate: child["birth_date"]),
                sharerName: sharer?["name"], sharerDisplayName: sharer?["display_name"], sharerEmail: sharer?["email"])
        }
    }

    public func childAlreadyTracked(inviteCodeHash: String, by userID: String, now: Int64) async throws -> String? {
        try await read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT unseal(children.name) FROM invites
                    JOIN child_members ON child_members.child_id = invites.child_id AND child_members.user_id = ?
                    JOIN children ON children.id = invites.child_id
                    WHERE invites.code_hash = ? AND invites.used_at IS NULL AND invites.expires_at > ?
                    """,
                arguments: [userID, inviteCodeHash, now])
        }
    }
}
