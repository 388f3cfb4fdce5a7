import GRDB
import OnboardService
import ServiceAPI

/// Device authorizations (RFC 8628) in SQLite.
extension SQLiteStore {
    public func createDeviceGrant(_ grant: NewDeviceGrant) async throws {
        try await write { db in
            // Spent and expired grants go as new ones come: nothing is kept past its use.
            try db.execute(sql: "DELETE FROM device_grants WHERE expires_at < ?", arguments: [grant.createdAt])
            try db.execute(
                sql: """
                    INSERT INTO device_grants (device_code_hash, user_code, provider, created_at, expires_at, interval, requested_from)
                    VALUES (?, ?, ?, ?, ?, ?, seal(?))
                    """,
                arguments: [
                    grant.deviceCodeHash, grant.userCode, grant.provider, grant.createdAt, grant.expiresAt, grant.interval,
                    grant.requestedFrom,
                ])
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
                PendingDeviceGrant(
                    provider: $0["provider"], expiresAt: $0["expires_at"], createdAt: $0["created_at"],
                    requestedFrom: $0["requested_from"] ?? "")
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
            guard
                let row = try Row.fetchOne(
                    db,
                    sql:
                        "SELECT provider, expires_at, interval, polled_at, status, subject, unseal(email) AS email FROM device_grants WHERE device_code_hash = ?",
                    arguments: [deviceCodeHash])
            else { return .unknown }
            let status: String = row["status"]
            let expiresAt: Int64 = row["expires_at"]
            if status == "spent" || status == "withdrawn" || expiresAt <= now { return .expired }
            if let polled: Int64 = row["polled_at"], now - polled < row["interval"] {
                let interval: Int64 = row["interval"] + 5
                try db.execute(
                    sql: "UPDATE device_grants SET polled_at = ?, interval = ? WHERE device_code_hash = ?",
                    arguments: [now, interval, deviceCodeHash])
                return .slowDown(interval: interval)
            }
            let next = status == "pending" ? "pending" : "spent"
            try db.execute(
                sql: "UPDATE device_grants SET polled_at = ?, status = ? WHERE device_code_hash = ?",
                arguments: [now, next, deviceCodeHash])
            switch status {
            case "approved":
                return .approved(
                    provider: row["provider"], identity: DeviceIdentity(subject: row["subject"], email: row["email"]), expiresAt: expiresAt)
            case "denied": return .denied
            default: return .pending
            }
        }
    }
}
