import ServiceAPI

/// Rate limits (counted where the store says: SQLite's in its process's memory,
/// PostgreSQL's shared by every instance) and lockouts (failed log-ins, always durable).
public protocol RateLimitStore: Sendable {
    /// Counts one event against `rule`; the seconds to wait when over the limit.
    func hitRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64?
    /// Counts one event against each key under one rule, at once; each key's wait.
    func hitRateLimits(_ keys: [String], _ rule: RateLimit, now: Int64) async throws -> [Int64?]
    /// `hitRateLimits` for a live session only (see `AccountStore.sessionIsLive`): nil,
    /// and nothing counted, when it is not.
    func hitRateLimits(
        _ keys: [String], _ rule: RateLimit, now: Int64, forLiveSession userID: String, family: String?
    ) async throws -> [Int64?]?
    /// Counts `weight` at once against `rule` (a batch's events, or its bytes); nothing is
    /// counted when that would pass the limit, and the seconds to wait are returned.
    func hitRateLimit(_ key: String, _ rule: RateLimit, weight: Int, now: Int64) async throws -> Int64?
    /// The seconds to wait when `key` is over its limit, without counting.
    func checkRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64?
    /// Gives back one event `hitRateLimit` counted in the current window.
    func releaseRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws

    /// One attempt counted against `key` in a fixed window, durably: unlike a rate limit's
    /// count, a lockout survives a restart, a crash and a failover (an attacker who can
    /// crash the server must not win back its guesses). The seconds to wait when over.
    func hitLockout(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64?
    /// Gives back an attempt that was not a failure.
    func releaseLockout(_ key: String, _ rule: RateLimit, now: Int64) async throws
}

/// One event to count against a rate limit.
public struct RateLimitHit: Sendable {
    public var key: String
    public var rule: RateLimit

    public init(key: String, rule: RateLimit) {
        self.key = key
        self.rule = rule
    }
}

extension RateLimitStore {
    /// One key after the other: a store whose counts cost no round trip (SQLite's are
    /// in memory) needs no more.
    public func hitRateLimits(_ keys: [String], _ rule: RateLimit, now: Int64) async throws -> [Int64?] {
        var waits: [Int64?] = []
        for key in keys { waits.append(try await hitRateLimit(key, rule, now: now)) }
        return waits
    }
}

extension RateLimitStore where Self: AccountStore {
    /// The session's check, then the counts.
    public func hitRateLimits(
        _ keys: [String], _ rule: RateLimit, now: Int64, forLiveSession userID: String, family: String?
    ) async throws
        -> [Int64?]?
    {
        guard try await sessionIsLive(userID: userID, family: family) else { return nil }
        return try await hitRateLimits(keys, rule, now: now)
    }
}
