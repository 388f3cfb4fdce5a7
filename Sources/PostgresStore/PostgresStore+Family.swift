import Foundation
import Logging
import OnboardService
import PostgresNIO
import ServiceAPI

/// Children and invites in PostgreSQL.
extension PostgresStore {
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

    public func createInvite(
        codeHash: String, childID: String, by userID: String, now: Int64, expiresAt: Int64, outbox: OutboxEntry?
    ) async throws -> Bool {
        try await transaction { db in
            guard
                try await db.first(
                    "SELECT 1 FROM child_members WHERE child_id = \(childID) AND user_id = \(userID)", as: Int32.self, logger: self.logger)
                    != nil
            else { return false }
            try await db.query(
                "INSERT INTO invites (code_hash, child_id, created_by, created_at, expires_at) VALUES (\(codeHash), \(childID), \(userID), \(now), \(expiresAt))",
                logger: self.logger)
            try await Self.recordOutbox(outbox, db, self.logger)
            return true
        }
    }

    public func redeemInvite(codeHash: String, by userID: String, now: Int64) async throws -> InviteRedemption? {
        // One statement: a conditional UPDATE (of redemptions racing on any instances, one
        // wins; the winner may redeem it again, a retry whose answer was lost, and gets the
        // child again), the membership, and what the answer shows, in one round trip.
        try await statement { db in
            var accepted: InviteRedemption?
            for try await row in try await db.execute(
                InviteRedemptionStatement(now: now, userID: userID, codeHash: codeHash), logger: self.logger)
            {
                accepted = row
            }
            return accepted
        }
    }

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
