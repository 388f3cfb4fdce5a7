import GRDB
import OnboardService
import ServiceAPI

/// Rate limits in this process's memory (`RateLimiter`); lockouts on disk, where a
/// restart cannot forget them.
extension SQLiteStore {
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
                sql: "UPDATE lockouts SET count = count - 1 WHERE key = ? AND count > 0 AND ? - window_start < ?",
                arguments: [key, now, rule.window])
        }
    }
}
