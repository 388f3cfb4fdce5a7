import Foundation
import Logging
import OnboardService
import PostgresNIO
import ServiceAPI

/// Rate limits in PostgreSQL, shared by every instance; lockouts in a logged table.
extension PostgresStore {
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

    public func hitRateLimits(
        _ keys: [String], _ rule: RateLimit, now: Int64, forLiveSession userID: String, family: String?
    ) async throws
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
        for try await (key, start, count) in try await db.execute(
            RateLimitStatement(sortedKeys: keys.sorted(), now: now, rule: rule), logger: logger)
        {
            counted[key] = (start, count)
        }
        return waits(keys, counted, rule, now: now)
    }

    /// Each key's wait, in the order given, from the counts a statement returned.
    static func waits(_ keys: [String], _ counted: [String: (start: Int64, count: Int32)], _ rule: RateLimit, now: Int64) -> [Int64?] {
        keys.map { key in counted[key].flatMap { Int($0.count) > rule.limit ? $0.start + rule.window - now : nil } }
    }

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
