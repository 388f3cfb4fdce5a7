import Foundation
import OnboardService
import PostgresNIO
import ServiceAPI

/// Profiles, records, idempotency, rate limits and QA in PostgreSQL.
extension PostgresStore {
    public func updateProfile(of userID: String, with fields: [String: FieldValue], maximumBytes: Int, now: Int64) async throws -> ProfileUpdate {
        try await transaction(onUniqueViolation: ProfileUpdate.displayNameTaken) { db in
            // The user's row locked: two saves of one profile merge one after the other.
            try await db.query("SELECT 1 FROM users WHERE id = \(userID) FOR UPDATE", logger: self.logger)
            var merged = try await Self.fields(of: userID, db, self.logger)
            merged.merge(fields) { _, new in new }
            let data = try JSONEncoder().encode(merged)
            guard data.count <= maximumBytes else { return .tooLarge }
            if case .text(let displayName)? = fields["display_name"] {
                // Taken: a name another is shown by (their display name, else their name),
                // compared as people read it (`NameKey`), or a name offered to another
                // (OKLah's pool).
                let key = NameKey.of(displayName)
                let taken = try await db.first(
                    """
                    SELECT 1 FROM users WHERE id <> \(userID) AND display_key = \(key)
                    UNION ALL SELECT 1 FROM name_offers WHERE lower(name) = lower(\(displayName)) AND user_id <> \(userID)
                    LIMIT 1
                    """, as: Int32.self, logger: self.logger)
                guard taken == nil else { return .displayNameTaken }
                try await db.query(
                    "UPDATE users SET display_name = \(displayName), display_key = \(key) WHERE id = \(userID)", logger: self.logger)
            }
            if fields["profile_complete"] == .flag(true) {
                // A finished profile is a finished onboarding, as the account row says.
                try await db.query("UPDATE users SET onboarding_complete = TRUE WHERE id = \(userID)", logger: self.logger)
            }
            let text = String(decoding: data, as: UTF8.self)
            try await db.query(
                """
                INSERT INTO profiles (user_id, data, updated_at) VALUES (\(userID), \(text), \(now))
                ON CONFLICT (user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at
                """, logger: self.logger)
            return .updated(try await Self.profile(of: userID, db, self.logger))
        }
    }

    public func putRecord(_ value: FieldValue, key: String, for userID: String, now: Int64) async throws {
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try await transaction { db in
            try await db.query(
                """
                INSERT INTO records (user_id, key, value, updated_at) VALUES (\(userID), \(key), \(text), \(now))
                ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """, logger: self.logger)
        }
    }

    public func addRecordItem(_ item: String, key: String, for userID: String, maximumBytes: Int, now: Int64) async throws -> [String] {
        try await transaction { db in
            // The row is made first if missing, so two first adds both find it and queue on its lock.
            try await db.query(
                "INSERT INTO records (user_id, key, value, updated_at) VALUES (\(userID), \(key), '[]', \(now)) ON CONFLICT (user_id, key) DO NOTHING",
                logger: self.logger)
            var stored: String?
            let rows = try await db.query(
                "SELECT value FROM records WHERE user_id = \(userID) AND key = \(key) FOR UPDATE", logger: self.logger)
            for try await value in rows.decode(String.self) { stored = value }
            let list = try RecordListAppend.adding(item, to: stored, maximumBytes: maximumBytes)
            if list.changed {
                try await db.query(
                    "UPDATE records SET value = \(list.json), updated_at = \(now) WHERE user_id = \(userID) AND key = \(key)",
                    logger: self.logger)
            }
            return list.items
        }
    }

    public func mergeRecordLists(_ keys: [String], from: String, to: String, maximumBytes: Int, now: Int64) async throws {
        try await transaction { db in
            for key in keys {
                var theirs: String?
                for try await value in try await db.query(
                    "SELECT value FROM records WHERE user_id = \(from) AND key = \(key) FOR UPDATE", logger: self.logger
                ).decode(String.self) { theirs = value }
                guard let theirs else { continue }
                try await db.query(
                    "INSERT INTO records (user_id, key, value, updated_at) VALUES (\(to), \(key), '[]', \(now)) ON CONFLICT (user_id, key) DO NOTHING",
                    logger: self.logger)
                var stored: String?
                for try await value in try await db.query(
                    "SELECT value FROM records WHERE user_id = \(to) AND key = \(key) FOR UPDATE", logger: self.logger
                ).decode(String.self) { stored = value }
                for item in RecordListAppend.items(of: theirs) {
                    stored = try RecordListAppend.adding(item, to: stored, maximumBytes: maximumBytes).json
                }
                try await db.query(
                    "UPDATE records SET value = \(stored ?? "[]"), updated_at = \(now) WHERE user_id = \(to) AND key = \(key)", logger: self.logger)
                try await db.query("DELETE FROM records WHERE user_id = \(from) AND key = \(key)", logger: self.logger)
            }
        }
    }

    public func moveRecords(_ keys: [String], from: String, to: String, now: Int64) async throws {
        try await transaction { db in
            for key in keys {
                try await db.query(
                    """
                    INSERT INTO records (user_id, key, value, updated_at) SELECT \(to), key, value, \(now) FROM records WHERE user_id = \(from) AND key = \(key)
                    ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                    """, logger: self.logger)
                try await db.query("DELETE FROM records WHERE user_id = \(from) AND key = \(key)", logger: self.logger)
            }
        }
    }

    public func records(of userID: String) async throws -> [String: FieldValue] {
        try await transaction { db in
            var result: [String: FieldValue] = [:]
            let rows = try await db.query("SELECT key, value FROM records WHERE user_id = \(userID)", logger: self.logger)
            for try await (key, text) in rows.decode((String, String).self) {
                result[key] = try? JSONDecoder().decode(FieldValue.self, from: Data(text.utf8))
            }
            return result
        }
    }

    // MARK: Idempotency

    public func claimIdempotency(_ id: String, operation: String, request: String, now: Int64, window: Int64, wait: Int64) async throws -> IdempotencyClaim {
        try await transaction { db in
            try await db.query("DELETE FROM idempotency WHERE created_at < \(now - window)", logger: self.logger)
            if try await db.first(
                "INSERT INTO idempotency (id, operation, request_hash, created_at) VALUES (\(id), \(operation), \(request), \(now)) ON CONFLICT DO NOTHING RETURNING id",
                as: String.self, logger: self.logger) != nil {
                return .claimed
            }
            let rows = try await db.query("SELECT operation, request_hash, sealed, created_at FROM idempotency WHERE id = \(id) FOR UPDATE", logger: self.logger)
            var found: (String, String?, Data?, Int64)?
            for try await row in rows.decode((String, String?, Data?, Int64).self) { found = row }
            guard let (claimedFor, held, sealed, createdAt) = found else { return .running }
            guard claimedFor == operation else { return .otherOperation }
            if let held, held != request { return .otherRequest }
            if let sealed { return .finished(sealed) }
            if now - createdAt > wait {
                // Abandoned (an instance killed mid-call): taken over.
                try await db.query("UPDATE idempotency SET created_at = \(now) WHERE id = \(id)", logger: self.logger)
                return .claimed
            }
            return .running
        }
    }

    public func sealIdempotency(_ id: String, result: Data) async throws {
        try await transaction { db in try await db.query("UPDATE idempotency SET sealed = \(result) WHERE id = \(id)", logger: self.logger) }
    }

    public func releaseIdempotency(_ id: String) async throws {
        try await transaction { db in try await db.query("DELETE FROM idempotency WHERE id = \(id) AND sealed IS NULL", logger: self.logger) }
    }

    // MARK: Rate limits, shared by every instance

    public func hitRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64? {
        try await hitRateLimits([key], rule, now: now).first ?? nil
    }

    public func hitRateLimits(_ keys: [String], _ rule: RateLimit, now: Int64) async throws -> [Int64?] {
        // One statement on an unlogged table (schema v6): every request from one address
        // counts on one row, locked until commit, and a commit that waited for the disk
        // would let the address through once per fsync (measured: 411 sign-ins/s against
        // 2,497 durable inserts/s). Unlogged, the commit writes nothing to the WAL and
        // waits for nothing; a crash empties the counts, letting a few more requests
        // through. Nothing else is lost.
        guard !keys.isEmpty else { return [] }
        return try await statement { db in try await Self.hit(keys, rule, now: now, db, self.logger) }
    }

    public func hitRateLimits(_ keys: [String], _ rule: RateLimit, now: Int64, forLiveSession userID: String, family: String?) async throws
        -> [Int64?]?
    {
        // The session's check and the counts in one statement: one round trip where two were.
        try await statement { db in
            var live = false
            var counted: [String: (start: Int64, count: Int32)] = [:]
            let statement = LiveRateLimitStatement(sortedKeys: keys.sorted(), now: now, rule: rule, userID: userID, family: family)
            for try await row in try await db.execute(statement, logger: self.logger) {
                live = row.live
                if let key = row.key, let start = row.start, let count = row.count { counted[key] = (start, count) }
            }
            return live ? Self.waits(keys, counted, rule, now: now) : nil
        }
    }

    public func hitRateLimit(_ key: String, _ rule: RateLimit, weight: Int, now: Int64) async throws -> Int64? {
        // The row locked, then judged here: a weighted count is rare (analytics batches),
        // so clarity over the single statement the per-request limits need.
        try await transaction { db in
            let rows = try await db.query("SELECT window_start, count FROM rate_limits WHERE key = \(key) FOR UPDATE", logger: self.logger)
            var found: (Int64, Int32)?
            for try await row in rows.decode((Int64, Int32).self) { found = row }
            var (start, count) = found.map { ($0.0, Int($0.1)) } ?? (now, 0)
            if now - start >= rule.window { (start, count) = (now, 0) }
            guard count + weight <= rule.limit else { return start + rule.window - now }
            let counted = Int32(clamping: count + weight)
            try await db.query(
                """
                INSERT INTO rate_limits (key, window_start, count) VALUES (\(key), \(start), \(counted))
                ON CONFLICT (key) DO UPDATE SET window_start = excluded.window_start, count = excluded.count
                """, logger: self.logger)
            return nil
        }
    }

    public func releaseRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws {
        try await transaction { db in
            try await db.query(
                "UPDATE rate_limits SET count = count - 1 WHERE key = \(key) AND count > 0 AND \(now) - window_start < \(rule.window)",
                logger: self.logger)
        }
    }

    public func checkRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64? {
        try await transaction { db in
            let rows = try await db.query("SELECT window_start, count FROM rate_limits WHERE key = \(key)", logger: self.logger)
            var wait: Int64?
            for try await (start, count) in rows.decode((Int64, Int32).self) where now - start < rule.window && Int(count) >= rule.limit {
                wait = start + rule.window - now
            }
            return wait
        }
    }

    /// A fixed window per key, all `keys` counted in one statement, in key order (two
    /// requests locking the same rows in opposite orders could deadlock). Each row is
    /// locked from it to the commit, and every request from one address waits on that
    /// row. Each key's wait when over the limit, in the order given. A refused event is
    /// not counted: the count stops at limit + 1, which marks the window as over.
    static func hit(_ keys: [String], _ rule: RateLimit, now: Int64, _ db: PostgresConnection, _ logger: Logger) async throws -> [Int64?] {
        var counted: [String: (start: Int64, count: Int32)] = [:]
        for try await (key, start, count) in try await db.execute(RateLimitStatement(sortedKeys: keys.sorted(), now: now, rule: rule), logger: logger) {
            counted[key] = (start, count)
        }
        return waits(keys, counted, rule, now: now)
    }

    /// Each key's wait, in the order given, from the counts a statement returned.
    static func waits(_ keys: [String], _ counted: [String: (start: Int64, count: Int32)], _ rule: RateLimit, now: Int64) -> [Int64?] {
        keys.map { key in counted[key].flatMap { Int($0.count) > rule.limit ? $0.start + rule.window - now : nil } }
    }

    // MARK: Lockouts, in a logged table

    /// Unlike `rate_limits` (unlogged, so a crash empties it), `lockouts` is written to the
    /// WAL: a crash-restart or a failover to a replica keeps every locked account locked.
    /// A log-in's bcrypt check costs far more than the commit's wait for the disk.
    public func hitLockout(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64? {
        try await transaction { db in
            try await db.query("DELETE FROM lockouts WHERE window_start <= \(now - rule.window)", logger: self.logger)
            var binds = PostgresBindings(capacity: 4)
            binds.append(key)
            binds.append(now)
            binds.append(rule.window)
            binds.append(Int64(rule.limit))
            let rows = try await db.query(PostgresQuery(unsafeSQL: Lockout.counting(placeholders: "$"), binds: binds), logger: self.logger)
            var counted: (Int64, Int64)?
            for try await (start, count) in rows.decode((Int64, Int32).self) { counted = (start, Int64(count)) }
            return Lockout.wait(start: counted?.0, count: counted?.1, rule, now: now)
        }
    }

    public func releaseLockout(_ key: String, _ rule: RateLimit, now: Int64) async throws {
        try await transaction { db in
            try await db.query(
                "UPDATE lockouts SET count = count - 1 WHERE key = \(key) AND count > 0 AND \(now) - window_start < \(rule.window)",
                logger: self.logger)
        }
    }
}
