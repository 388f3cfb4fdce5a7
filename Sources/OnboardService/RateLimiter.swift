import ServiceAPI
import Synchronization

/// Fixed-window counters in memory, keyed by rule and subject (an address, an email).
/// Per process: several server instances would each count on their own.
final class RateLimiter: Sendable {
    private struct Window {
        var start: Int64
        var count: Int
    }

    private let windows = Mutex<[String: Window]>([:])

    /// Counts one event; throws `rate_limited` with the seconds left when over the limit.
    func hit(_ key: String, _ rule: RateLimit, now: Int64) throws {
        let retryAfter: Int64? = windows.withLock { windows in
            var window = windows[key] ?? Window(start: now, count: 0)
            if now - window.start >= rule.window { window = Window(start: now, count: 0) }
            guard window.count < rule.limit else { return window.start + rule.window - now }
            window.count += 1
            windows[key] = window
            return nil
        }
        if let retryAfter {
            let seconds = Int(max(1, retryAfter))
            throw ServiceError(.rateLimited, "Too many attempts. Please wait \(seconds) seconds and try again.", retryAfter: seconds)
        }
    }

    /// Whether the key is over its limit, without counting.
    func check(_ key: String, _ rule: RateLimit, now: Int64) throws {
        let retryAfter: Int64? = windows.withLock { windows in
            guard let window = windows[key], now - window.start < rule.window, window.count >= rule.limit else { return nil }
            return window.start + rule.window - now
        }
        if let retryAfter {
            let seconds = Int(max(1, retryAfter))
            throw ServiceError(.rateLimited, "Too many attempts. Please wait \(seconds) seconds and try again.", retryAfter: seconds)
        }
    }

    func reset() {
        windows.withLock { $0 = [:] }
    }
}
