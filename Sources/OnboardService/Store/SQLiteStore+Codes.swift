import Foundation
import GRDB
import ServiceAPI

/// Single-use things in SQLite: phone codes, social ID tokens, invites.
extension SQLiteStore {
    public func storePhoneCode(_ code: PhoneCode, resendAfter: Int64, limit: RateLimitHit, outbox: OutboxEntry?) async throws -> PhoneCodeStored {
        let limiter = self.limiter
        return try await write { db in
            if let sentAt = try Int64.fetchOne(db, sql: "SELECT sent_at FROM phone_codes WHERE phone = seal_key(?)", arguments: [code.phone]),
               code.sentAt - sentAt < resendAfter {
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

    public func spendPhoneCode(phone: String, codeHash: String, now: Int64, maximumAttempts: Int, token: NewRefreshToken) async throws -> PhoneCodeOutcome {
        try await write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT code_hash, expires_at, attempts FROM phone_codes WHERE phone = seal_key(?)", arguments: [phone])
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

    public func socialUser(tokenID: String, tokenExpiry: Int64, provider: String, subject: String, email: String?, now: Int64, token: NewRefreshToken) async throws -> SignedInUser? {
        try await write { db in
            // Accepted once: a replayed token (a stolen one, or a retried request) is refused.
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM used_id_tokens WHERE token_id = ?", arguments: [tokenID]) == nil
            else { return nil }
            try db.execute(sql: "DELETE FROM used_id_tokens WHERE expires_at < ?", arguments: [now])
            try db.execute(sql: "INSERT INTO used_id_tokens (token_id, expires_at) VALUES (?, ?)", arguments: [tokenID, tokenExpiry])
            if let row = try Row.fetchOne(
                db, sql: "SELECT id, created_at FROM users WHERE auth_provider = ? AND provider_subject = ?", arguments: [provider, subject]) {
                let user = SignedInUser(userID: row["id"], createdAt: row["created_at"], isNew: false)
                try Self.insert(token.granted(to: user.userID), in: db)
                return user
            }
            // The provider's email is kept unless another account already has it.
            let emailFree = try email.map { try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE email = seal_key(?)", arguments: [$0]) == nil } ?? false
            try db.execute(
                sql: "INSERT INTO users (id, created_at, is_anonymous, email, auth_provider, provider_subject) VALUES (?, ?, 0, seal_key(?), ?, ?)",
                arguments: [token.userID, now, emailFree ? email : nil, provider, subject])
            try Self.insert(token, in: db)
            return SignedInUser(userID: token.userID, createdAt: now, isNew: true)
        }
    }

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
                sql: "SELECT c.id, unseal(c.name) AS name, unseal(c.birth_date) AS birth_date FROM children c JOIN child_members m ON m.child_id = c.id WHERE m.user_id = ? ORDER BY c.created_at, c.id",
                arguments: [userID]
            ).map { Child(id: $0["id"], name: $0["name"], birthDate: $0["birth_date"]) }
        }
    }

    public func createInvite(codeHash: String, childID: String, by userID: String, now: Int64, expiresAt: Int64, outbox: OutboxEntry?) async throws -> Bool {
        try await write { db in
            let member = try Bool.fetchOne(db, sql: "SELECT 1 FROM child_members WHERE child_id = ? AND user_id = ?", arguments: [childID, userID]) ?? false
            guard member else { return false }
            try db.execute(
                sql: "INSERT INTO invites (code_hash, child_id, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [codeHash, childID, userID, now, expiresAt])
            try Self.recordOutbox(outbox, in: db)
            return true
        }
    }

    public func redeemInvite(codeHash: String, by userID: String, now: Int64) async throws -> InviteAcceptance? {
        try await write { db in
            // One conditional UPDATE: two racing redemptions cannot both win. The winner
            // may redeem it again (a retry whose answer was lost) and gets the child again;
            // someone who already tracks the child spends nothing.
            guard let row = try Row.fetchOne(
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
            guard let child = try Row.fetchOne(db, sql: "SELECT id, unseal(name) AS name, unseal(birth_date) AS birth_date FROM children WHERE id = ?", arguments: [childID])
            else { return nil }
            let sharer = try Row.fetchOne(db, sql: "SELECT unseal(name) AS name, unseal(display_name) AS display_name, unseal(email) AS email FROM users WHERE id = ?", arguments: [grantedBy])
            let sharedBy: String = sharer?["name"] ?? sharer?["display_name"] ?? sharer?["email"] ?? "someone"
            return InviteAcceptance(child: Child(id: child["id"], name: child["name"], birthDate: child["birth_date"]), sharedBy: sharedBy)
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

    // MARK: Device authorizations

    public func createDeviceGrant(_ grant: NewDeviceGrant) async throws {
        try await write { db in
            // Spent and expired grants go as new ones come: nothing is kept past its use.
            try db.execute(sql: "DELETE FROM device_grants WHERE expires_at < ?", arguments: [grant.createdAt])
            try db.execute(
                sql: """
                    INSERT INTO device_grants (device_code_hash, user_code, provider, created_at, expires_at, interval, requested_from)
                    VALUES (?, ?, ?, ?, ?, ?, seal(?))
                    """,
                arguments: [grant.deviceCodeHash, grant.userCode, grant.provider, grant.createdAt, grant.expiresAt, grant.interval, grant.requestedFrom])
        }
    }

    public func pendingDeviceGrant(userCode: String, now: Int64) async throws -> PendingDeviceGrant? {
        try await read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT provider, expires_at, created_at, unseal(requested_from) AS requested_from FROM device_grants
                    WHERE user_code = ? AND status = 'pending' AND expires_at > ?
                    """,
                arguments: [userCode, now]
            ).map {
                PendingDeviceGrant(provider: $0["provider"], expiresAt: $0["expires_at"], createdAt: $0["created_at"], requestedFrom: $0["requested_from"] ?? "")
            }
        }
    }

    public func decideDeviceGrant(userCode: String, identity: DeviceIdentity?, now: Int64) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE device_grants SET status = ?, subject = ?, email = seal(?)
                    WHERE user_code = ? AND status = 'pending' AND expires_at > ?
                    """,
                arguments: [identity == nil ? "denied" : "approved", identity?.subject, identity?.email, userCode, now])
            return db.changesCount == 1
        }
    }

    public func withdrawDeviceGrant(deviceCodeHash: String) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE device_grants SET status = 'withdrawn' WHERE device_code_hash = ? AND status IN ('pending', 'approved')",
                arguments: [deviceCodeHash])
        }
    }

    public func pollDeviceGrant(deviceCodeHash: String, now: Int64) async throws -> DeviceGrantPoll {
        try await write { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT provider, expires_at, interval, polled_at, status, subject, unseal(email) AS email FROM device_grants WHERE device_code_hash = ?",
                arguments: [deviceCodeHash])
            else { return .unknown }
            let status: String = row["status"]
            let expiresAt: Int64 = row["expires_at"]
            if status == "spent" || status == "withdrawn" || expiresAt <= now { return .expired }
            if let polled: Int64 = row["polled_at"], now - polled < row["interval"] {
                let interval: Int64 = row["interval"] + 5
                try db.execute(
                    sql: "UPDATE device_grants SET polled_at = ?, interval = ? WHERE device_code_hash = ?", arguments: [now, interval, deviceCodeHash])
                return .slowDown(interval: interval)
            }
            let next = status == "pending" ? "pending" : "spent"
            try db.execute(
                sql: "UPDATE device_grants SET polled_at = ?, status = ? WHERE device_code_hash = ?", arguments: [now, next, deviceCodeHash])
            switch status {
            case "approved":
                return .approved(provider: row["provider"], identity: DeviceIdentity(subject: row["subject"], email: row["email"]), expiresAt: expiresAt)
            case "denied": return .denied
            default: return .pending
            }
        }
    }
}
