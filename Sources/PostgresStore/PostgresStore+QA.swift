import OnboardService
import PostgresNIO
import ServiceAPI

/// `--dev`'s controls in PostgreSQL: the outbox, readiness, the QA settings every
/// instance shares (clock and faults), and the reset.
extension PostgresStore {
    public func outbox() async throws -> [OutboxEntry] {
        try await transaction { db in
            let rows = try await db.query("SELECT kind, destination, code, created_at FROM outbox ORDER BY id", logger: self.logger)
            var entries: [OutboxEntry] = []
            for try await (kind, destination, code, createdAt) in rows.decode((String, String, String, Int64).self) {
                entries.append(OutboxEntry(kind: kind, destination: destination, code: code, createdAt: createdAt))
            }
            return entries
        }
    }

    public func ping() async throws {
        try await transaction { db in _ = try await db.first("SELECT 1", as: Int32.self, logger: self.logger) }
    }

    public func qaSettings() async throws -> [String: Int64] {
        try await statement { db in
            var settings: [String: Int64] = [:]
            for try await (name, value) in try await db.query("SELECT name, value FROM qa_settings", logger: self.logger).decode(
                (String, Int64).self)
            {
                settings[name] = value
            }
            return settings
        }
    }

    public func setQAFaults(_ faults: [String: Int64]) async throws {
        try await transaction { db in
            try await db.query("DELETE FROM qa_settings WHERE name LIKE 'fault:%'", logger: self.logger)
            for (name, value) in faults {
                try await db.query("INSERT INTO qa_settings (name, value) VALUES (\(name), \(value))", logger: self.logger)
            }
        }
    }

    public func countDownQASetting(_ name: String) async throws -> Bool {
        try await statement { db in
            try await db.first(
                "UPDATE qa_settings SET value = value - 1 WHERE name = \(name) AND value > 0 RETURNING value", as: Int64.self,
                logger: self.logger) != nil
        }
    }

    public func flipQASetting(_ name: String) async throws -> Bool {
        try await statement { db in
            try await db.first(
                "UPDATE qa_settings SET value = 1 - value WHERE name = \(name) RETURNING value", as: Int64.self, logger: self.logger) == 1
        }
    }

    public func setQAClockOffset(_ seconds: Int64) async throws {
        try await transaction { db in
            try await db.query(
                "INSERT INTO qa_settings (name, value) VALUES ('clock', \(seconds)) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                logger: self.logger)
        }
    }

    public func reset() async throws {
        try await transaction { db in
            for table in [
                "records", "invites", "child_members", "children", "profiles", "phone_codes", "refresh_tokens", "name_offers",
                "outbox", "used_id_tokens", "idempotency", "rate_limits", "lockouts", "qa_settings", "users",
            ] {
                try await db.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table)"), logger: self.logger)
            }
        }
    }
}
