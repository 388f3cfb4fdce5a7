import Foundation
import GRDB
import ServiceAPI

/// Profiles, records, idempotency, rate limits and QA in SQLite.
extension SQLiteStore {
    public func updateProfile(of userID: String, with fields: [String: FieldValue], maximumBytes: Int, now: Int64) async throws -> ProfileUpdate {
        try await write { db in
            var merged = try Self.fields(of: userID, in: db)
            merged.merge(fields) { _, new in new }
            let data = try JSONEncoder().encode(merged)
            guard data.count <= maximumBytes else { return .tooLarge }
            if case .text(let displayName)? = fields["display_name"] {
                // Taken: a name another is shown by (their display name, else their name),
                // compared as people read it (`NameKey`), or a name offered to another
                // (OKLah's pool).
                let key = NameKey.of(displayName)
                let taken = try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT 1 FROM users WHERE id != ?2 AND display_key = seal_key(?3)
                        UNION ALL SELECT 1 FROM name_offers WHERE name = ?1 COLLATE NOCASE AND user_id != ?2
                        LIMIT 1
                        """,
                    arguments: [displayName, userID, key]) ?? false
                guard !taken else { return .displayNameTaken }
                try db.execute(
                    sql: "UPDATE users SET display_name = seal_key(?), display_key = seal_key(?) WHERE id = ?", arguments: [displayName, key, userID])
            }
            if fields["profile_complete"] == .flag(true) {
                // A finished profile is a finished onboarding, as the account row says.
                try db.execute(sql: "UPDATE users SET onboarding_complete = 1 WHERE id = ?", arguments: [userID])
            }
            try db.execute(
                sql: "INSERT INTO profiles (user_id, data, updated_at) VALUES (?, seal(?), ?) ON CONFLICT(user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
                arguments: [userID, String(decoding: data, as: UTF8.self), now])
            return .updated(try Self.profile(of: userID, in: db))
        }
    }

    public func putRecord(_ value: FieldValue, key: String, for userID: String, now: Int64) async throws {
        let data = try JSONEncoder().encode(value)
        try await write { db in
            try db.execute(
                sql: "INSERT INTO records (user_id, key, value, updated_at) VALUES (?, ?, seal(?), ?) ON CONFLICT(user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                arguments: [userID, key, String(decoding: data, as: UTF8.self), now])
        }
    }

    public func addRecordItem(_ item: String, key: String, for userID: String, maximumBytes: Int, now: Int64) async throws -> [String] {
        try await write { db in
            let stored = try String.fetchOne(
                db, sql: "SELECT unseal(value) FROM records WHERE user_id = ? AND key = ?", arguments: [userID, key])
            let list = try RecordListAppend.adding(item, to: stored, maximumBytes: maximumBytes)
            if list.changed {
                try db.execute(
                    sql: "INSERT INTO records (user_id, key, value, updated_at) VALUES (?, ?, seal(?), ?) ON CONFLICT(user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                    arguments: [userID, key, list.json, now])
            }
            return list.items
        }
    }

    public func mergeRecordLists(_ keys: [String], from: String, to: String, maximumBytes: Int, now: Int64) async throws {
        try await write { db in
            for key in keys {
                guard let theirs = try String.fetchOne(
                    db, sql: "SELECT unseal(value) FROM records WHERE user_id = ? AND key = ?", arguments: [from, key]) else { continue }
                var stored = try String.fetchOne(db, sql: "SELECT unseal(value) FROM records WHERE user_id = ? AND key = ?", arguments: [to, key])
                for item in RecordListAppend.items(of: theirs) {
                    stored = try RecordListAppend.adding(item, to: stored, maximumBytes: maximumBytes).json
                }
                try db.execute(
                    sql: "INSERT INTO records (user_id, key, value, updated_at) VALUES (?, ?, seal(?), ?) ON CONFLICT(user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                    arguments: [to, key, stored ?? "[]", now])
                try db.execute(sql: "DELETE FROM records WHERE user_id = ? AND key = ?", arguments: [from, key])
            }
        }
    }

    public func moveRecords(_ keys: [String], from: String, to: String, now: Int64) async throws {
        try await write { db in
            for key in keys {
                try db.execute(
                    sql: """
                        INSERT INTO records (user_id, key, value, updated_at) SELECT ?, key, value, ? FROM records WHERE user_id = ? AND key = ?
                        ON CONFLICT(user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                        """,
                    arguments: [to, now, from, key])
                try db.execute(sql: "DELETE FROM records WHERE user_id = ? AND key = ?", arguments: [from, key])
            }
        }
    }

    public func records(of userID: String) async throws -> [String: FieldValue] {
        try await read { db in
            var result: [String: FieldValue] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, unseal(value) AS value FROM records WHERE user_id = ?", arguments: [userID]) {
                let text: String = row["value"]
                result[row["key"]] = try? JSONDecoder().decode(FieldValue.self, from: Data(text.utf8))
            }
            return result
        }
    }

    // MARK: Idempotency

    /// Forgets expired keys, then claims `id` or reports its state.
    public func claimIdempotency(_ id: String, operation: String, request: String, now: Int64, window: Int64, wait: Int64) async throws -> IdempotencyClaim {
        try await write { db in
            try db.execute(sql: "DELETE FROM idempotency WHERE created_at < ?", arguments: [now - window])
            let me = Int64(getpid())
            guard let row = try Row.fetchOne(db, sql: "SELECT operation, request_hash, sealed, created_at, owner FROM idempotency WHERE id = ?", arguments: [id]) else {
                try db.execute(
                    sql: "INSERT INTO idempotency (id, operation, request_hash, created_at, owner) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, operation, request, now, me])
                return .claimed
            }
            guard row["operation"] as String == operation else { return .otherOperation }
            if let held: String = row["request_hash"], held != request { return .otherRequest }
            if let sealed: Data = row["sealed"] { return .finished(sealed) }
            let createdAt: Int64 = row["created_at"]
            let owner: Int64? = row["owner"]
            if now - createdAt > wait || owner.map({ $0 != me && !Self.isRunning($0) }) == true {
                // Abandoned (a process killed mid-call): taken over.
                try db.execute(sql: "UPDATE idempotency SET created_at = ?, owner = ? WHERE id = ?", arguments: [now, me, id])
                return .claimed
            }
            return .running
        }
    }

    /// Whether a process with this pid exists (a reused pid only means waiting as before).
    static func isRunning(_ pid: Int64) -> Bool {
        guard let pid = pid_t(exactly: pid), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    public func sealIdempotency(_ id: String, result: Data) async throws {
        try await write { db in try db.execute(sql: "UPDATE idempotency SET sealed = ? WHERE id = ?", arguments: [result, id]) }
    }

    public func releaseIdempotency(_ id: String) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM idempotency WHERE id = ? AND sealed IS NULL", arguments: [id]) }
    }

    // MARK: Rate limits (this process's memory)

    public func hitRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64? {
        limiter.hit(key, rule, now: now)
    }

    public func hitRateLimit(_ key: String, _ rule: RateLimit, weight: Int, now: Int64) async throws -> Int64? {
        limiter.hit(key, rule, weight: weight, now: now)
    }

    public func checkRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64? {
        limiter.check(key, rule, now: now)
    }

    public func releaseRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws {
        limiter.release(key, rule, now: now)
    }

    // MARK: Lockouts, on disk

    public func hitLockout(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64? {
        try await write { db in
            // Windows long over go as new attempts come: guessed emails leave no trail.
            try db.execute(sql: "DELETE FROM lockouts WHERE window_start <= ?", arguments: [now - rule.window])
            let row = try Row.fetchOne(db, sql: Lockout.counting(placeholders: "?"), arguments: [key, now, rule.window, rule.limit])
            return Lockout.wait(start: row?["window_start"], count: row?["count"], rule, now: now)
        }
    }

    public func releaseLockout(_ key: String, _ rule: RateLimit, now: Int64) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE lockouts SET count = count - 1 WHERE key = ? AND count > 0 AND ? - window_start < ?", arguments: [key, now, rule.window])
        }
    }

    // MARK: QA

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

    public func ping() async throws {
        try await read { db in try db.execute(sql: "SELECT 1") }
    }

    public func qaSettings() async throws -> [String: Int64] {
        try await read { db in
            try Dictionary(Row.fetchAll(db, sql: "SELECT name, value FROM qa_settings").map { ($0["name"], $0["value"]) }) { _, last in last }
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
            try Int64.fetchOne(db, sql: "UPDATE qa_settings SET value = value - 1 WHERE name = ? AND value > 0 RETURNING value", arguments: [name]) != nil
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
            for table in ["records", "invites", "child_members", "children", "profiles", "phone_codes", "refresh_tokens", "name_offers", "outbox", "used_id_tokens", "idempotency", "lockouts", "qa_settings", "users"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
        limiter.reset()
    }
}
