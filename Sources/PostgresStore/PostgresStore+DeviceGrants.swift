import OnboardService
import PostgresNIO
import ServiceAPI

/// RFC 8628's device authorizations in PostgreSQL: a poll locks its grant (`FOR UPDATE`),
/// so two instances polled at once answer one of them with the session and the other
/// with nothing.
extension PostgresStore {
    public func createDeviceGrant(_ grant: NewDeviceGrant) async throws {
        try await transaction { db in
            try await db.query("DELETE FROM device_grants WHERE expires_at < \(grant.createdAt)", logger: self.logger)
            try await db.query(
                """
                INSERT INTO device_grants (device_code_hash, user_code, provider, created_at, expires_at, interval, requested_from)
                VALUES (\(grant.deviceCodeHash), \(grant.userCode), \(grant.provider), \(grant.createdAt), \(grant.expiresAt), \(grant.interval),
                        \(grant.requestedFrom))
                """, logger: self.logger)
        }
    }

    public func pendingDeviceGrant(userCode: String, now: Int64) async throws -> PendingDeviceGrant? {
        try await transaction { db in
            let rows = try await db.query(
                """
                SELECT provider, expires_at, created_at, requested_from FROM device_grants
                WHERE user_code = \(userCode) AND status = 'pending' AND expires_at > \(now)
                """,
                logger: self.logger)
            var found: PendingDeviceGrant?
            for try await (provider, expiresAt, createdAt, from) in rows.decode((String, Int64, Int64, String?).self) {
                found = PendingDeviceGrant(provider: provider, expiresAt: expiresAt, createdAt: createdAt, requestedFrom: from ?? "")
            }
            return found
        }
    }

    public func decideDeviceGrant(userCode: String, identity: DeviceIdentity?, now: Int64) async throws -> Bool {
        try await transaction { db in
            let status = identity == nil ? "denied" : "approved"
            return try await db.first(
                """
                UPDATE device_grants SET status = \(status), subject = \(identity?.subject), email = \(identity?.email)
                WHERE user_code = \(userCode) AND status = 'pending' AND expires_at > \(now) RETURNING user_code
                """, as: String.self, logger: self.logger) != nil
        }
    }

    public func withdrawDeviceGrant(deviceCodeHash: String) async throws {
        try await transaction { db in
            try await db.query(
                "UPDATE device_grants SET status = 'withdrawn' WHERE device_code_hash = \(deviceCodeHash) AND status IN ('pending', 'approved')",
                logger: self.logger)
        }
    }

    public func pollDeviceGrant(deviceCodeHash: String, now: Int64) async throws -> DeviceGrantPoll {
        try await transaction { db in
            let rows = try await db.query(
                """
                SELECT provider, expires_at, interval, polled_at, status, subject, email FROM device_grants
                WHERE device_code_hash = \(deviceCodeHash) FOR UPDATE
                """, logger: self.logger)
            var found: (String, Int64, Int64, Int64?, String, String?, String?)?
            for try await row in rows.decode((String, Int64, Int64, Int64?, String, String?, String?).self) { found = row }
            guard let (provider, expiresAt, interval, polledAt, status, subject, email) = found else { return .unknown }
            if status == "spent" || status == "withdrawn" || expiresAt <= now { return .expired }
            if let polledAt, now - polledAt < interval {
                try await db.query(
                    "UPDATE device_grants SET polled_at = \(now), interval = \(interval + 5) WHERE device_code_hash = \(deviceCodeHash)",
                    logger: self.logger)
                return .slowDown(interval: interval + 5)
            }
            let next = status == "pending" ? "pending" : "spent"
            try await db.query(
                "UPDATE device_grants SET polled_at = \(now), status = \(next) WHERE device_code_hash = \(deviceCodeHash)",
                logger: self.logger)
            switch status {
            case "approved":
                return .approved(provider: provider, identity: DeviceIdentity(subject: subject ?? "", email: email), expiresAt: expiresAt)
            case "denied": return .denied
            default: return .pending
            }
        }
    }
}
