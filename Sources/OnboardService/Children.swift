import CivilCalendar
import GRDB
import InputRules
import ServiceAPI




/// Baby Basics: children, and invites that share a child with another account. Invite
/// codes are long and random, stored hashed, single use (one conditional UPDATE, so two
/// racing redemptions cannot both win) and expire; unknown, used and expired codes get
/// one and the same answer.
extension OnboardService {
    public static let invalidInvite = ServiceError(.notFound, "This invite link is invalid or has already been used.")

    public func addChild(accessToken: String, name: String, birthDate: String?, idempotencyKey: String? = nil) async throws -> Child {
        try await idempotent(idempotencyKey, operation: "add_child") {
            let (userID, _) = try await authenticate(accessToken)
            let now = clock.now()
            let name = name.trimmingWhitespace
            guard (1...100).contains(name.count) else { throw ServiceError(.invalidInput, "Please enter your baby's name.") }
            if let birthDate, !Self.isDate(birthDate) {
                throw ServiceError(.invalidInput, "Please enter the date of birth as YYYY-MM-DD.")
            }
            let child = Child(id: "c_" + Secrets.randomHex(bytes: 12), name: name, birthDate: birthDate)
            try await write { db in
                try db.execute(
                    sql: "INSERT INTO children (id, name, birth_date, created_by, created_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [child.id, child.name, child.birthDate, userID, now])
                try db.execute(sql: "INSERT INTO child_members (child_id, user_id) VALUES (?, ?)", arguments: [child.id, userID])
            }
            return child
        }
    }

    public func children(accessToken: String) async throws -> [Child] {
        let (userID, _) = try await authenticate(accessToken)
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT c.id, c.name, c.birth_date FROM children c JOIN child_members m ON m.child_id = c.id WHERE m.user_id = ? ORDER BY c.created_at, c.id",
                arguments: [userID]
            ).map { Child(id: $0["id"], name: $0["name"], birthDate: $0["birth_date"]) }
        }
    }

    public func createInvite(accessToken: String, childID: String, idempotencyKey: String? = nil) async throws -> Invite {
        try await idempotent(idempotencyKey, operation: "create_invite") {
            let (userID, _) = try await authenticate(accessToken)
            let now = clock.now()
            let code = Secrets.randomHex(bytes: 24)
            let expiresAt = now + settings.inviteLifetime
            try await write { db in
                let member = try Bool.fetchOne(db, sql: "SELECT 1 FROM child_members WHERE child_id = ? AND user_id = ?", arguments: [childID, userID]) ?? false
                guard member else { throw ServiceError(.notFound, "There is no such child on your account.") }
                try db.execute(
                    sql: "INSERT INTO invites (code_hash, child_id, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [Secrets.hash(code), childID, userID, now, expiresAt])
                try self.recordOutbox(kind: "invite", destination: childID, code: code, in: db, now: now)
            }
            return Invite(code: code, expiresAt: expiresAt)
        }
    }

    public func acceptInvite(accessToken: String, code: String, client: String = "local", idempotencyKey: String? = nil) async throws -> InviteAcceptance {
        try await idempotent(idempotencyKey, operation: "accept_invite") {
            let (userID, _) = try await authenticate(accessToken)
            let now = clock.now()
            try limiter.hit("invite:\(client)", settings.invitesPerAddress, now: now)
            try limiter.hit("invite-user:\(userID)", settings.invitesPerAddress, now: now)
            return try await write { db in
                guard let row = try Row.fetchOne(
                    db,
                    sql: """
                        UPDATE invites SET used_at = ?, used_by = ?
                        WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?
                        RETURNING child_id, created_by
                        """,
                    arguments: [now, userID, Secrets.hash(code.trimmingWhitespace), now])
                else { throw Self.invalidInvite }
                let childID: String = row["child_id"]
                let grantedBy: String = row["created_by"]
                try db.execute(
                    sql: "INSERT INTO child_members (child_id, user_id, granted_by) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    arguments: [childID, userID, grantedBy])
                guard let child = try Row.fetchOne(db, sql: "SELECT id, name, birth_date FROM children WHERE id = ?", arguments: [childID])
                else { throw Self.invalidInvite }
                let sharer = try Row.fetchOne(db, sql: "SELECT name, display_name, email FROM users WHERE id = ?", arguments: [grantedBy])
                let sharedBy: String = sharer?["name"] ?? sharer?["display_name"] ?? sharer?["email"] ?? "someone"
                return InviteAcceptance(child: Child(id: child["id"], name: child["name"], birthDate: child["birth_date"]), sharedBy: sharedBy)
            }
        }
    }

    static func isDate(_ text: String) -> Bool {
        guard let date = CivilDate(text) else { return false }
        return (1900...2200).contains(date.year)
    }
}
