import GRDB
import ServiceAPI

/// QA controls, on the embedded mock and on `onboard-server --dev`: read the outbox of
/// codes, reset everything.
extension OnboardService {
    public func outbox() async throws -> [OutboxEntry] {
        try await read(Self.outbox(in:))
    }

    /// The outbox now, without waiting: the QA console reads it from the UI thread.
    public func outboxSnapshot() -> [OutboxEntry] {
        (try? database.read(Self.outbox(in:))) ?? []
    }

    /// The outbox read straight from a service database (`onboard outbox` on the mock).
    public static func outbox(in db: Database) throws -> [OutboxEntry] {
        try Row.fetchAll(db, sql: "SELECT kind, destination, code, created_at FROM outbox ORDER BY id").map { row in
            OutboxEntry(kind: row["kind"], destination: row["destination"], code: row["code"], createdAt: row["created_at"])
        }
    }

    /// Deletes every account, token, name and code; keeps the signing secret.
    public func reset() async throws {
        try await write { db in
            for table in ["records", "invites", "child_members", "children", "profiles", "phone_codes", "refresh_tokens", "name_offers", "outbox", "used_id_tokens", "users"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
        limiter.reset()
        overrideConfig([:])
    }

    func recordOutbox(kind: String, destination: String, code: String, in db: Database, now: Int64) throws {
        guard settings.keepsOutbox else { return }
        try db.execute(
            sql: "INSERT INTO outbox (kind, destination, code, created_at) VALUES (?, ?, ?, ?)",
            arguments: [kind, destination, code, now])
    }
}
