import GRDB
import OnboardService
import ServiceAPI

/// QA's outbox, shared settings and reset in SQLite.
extension SQLiteStore {
    public func outbox() async throws -> [OutboxEntry] {
        try await read(Self.outbox(in:))
    }

    /// The outbox now, without waiting: the QA console reads it from the UI thread.
    public func outboxSnapshot() -> [OutboxEntry] {
        (try? queue.read(Self.outbox(in:))) ?? []
    }

    static func outbox(in db: Database) throws -> [OutboxEntry] {
        try Row.fetchAll(db, sql: "SELECT kind, unseal(destination) AS destination, code, created_at FROM outbox ORDER BY id").map { row in
            OutboxEntry(kind: row["kind"], destination: row["destination"], code: row["code"], createdAt: row["created_at"])
        }
    }

    public func qaSettings() async throws -> [String: Int64] {
        try await read { db in
            try Dictionary(Row.fetchAll(db, sql: "SELECT name, value FROM qa_settings").map { ($0["name"], $0["value"]) }) { _, last in last
            }
        }
    }

    public func setQAFaults(_ faults: [String: Int64]) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM qa_settings WHERE name LIKE 'fault:%'")
            for (name, value) in faults {
                try db.execute(sql: "INSERT INTO qa_settings (name, value) VALUES (?, ?)", arguments: [name, value])
            }
        }
    }

    public func countDownQASetting(_ name: String) async throws -> Bool {
        try await write { db in
            try Int64.fetchOne(
                db, sql: "UPDATE qa_settings SET value = value - 1 WHERE name = ? AND value > 0 RETURNING value", arguments: [name]) != nil
        }
    }

    public func flipQASetting(_ name: String) async throws -> Bool {
        try await write { db in
            try Int64.fetchOne(db, sql: "UPDATE qa_settings SET value = 1 - value WHERE name = ? RETURNING value", arguments: [name]) == 1
        }
    }

    public func setQAClockOffset(_ seconds: Int64) async throws {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO qa_settings (name, value) VALUES ('clock', ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                arguments: [seconds])
        }
    }

    public func reset() async throws {
        try await write { db in
            for table in [
                "records", "invites", "child_members", "children", "profiles", "phone_codes", "refresh_tokens", "name_offers", "outbox",
                "used_id_tokens", "idempotency", "lockouts", "qa_settings", "users",
            ] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
        limiter.reset()
    }
}
