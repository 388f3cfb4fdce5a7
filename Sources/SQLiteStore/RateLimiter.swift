import OnboardService
import ServiceAPI
import Synchronization

/// Fixed-window counters in memory, keyed by rule and subject (an address, an email):
/// the SQLite store's rate limits. Per process: several server instances would each count
/// on their own, which is why a shared store keeps its counts in its database.
final class RateLimiter: Sendable {
    private struct Window {
        var start: Int64
        var count: Int
    }

    private let windows = Mutex<[String: Window]>([:])

    /// Counts `weight` events; the seconds to wait when that would pass the limit (then
    /// nothing counts).
    func hit(_ key: String, _ rule: RateLimit, weight: Int = 1, now: Int64) -> Int64? {
        windows.withLock { windows in
            var window = windows[key] ?? Window(start: now, count: 0)
            if now - window.start >= rule.window { window = Window(start: now, count: 0) }
            guard window.count + weight <= rule.limit else { return window.start + rule.window - now }
            window.count += weight
            windows[key] = window
            return nil
        }
    }

    /// Gives back one event counted in the current window (a reserved attempt that was
    /// not a failure).
    func release(_ key: String, _ rule: RateLimit, now: Int64) {
        windows.withLock { windows in
            guard var window = windows[key], now - window.start < rule.window, window.count > 0 else { return }
            window.count -= 1
            windows[key] = window
        }
    }

    /// The seconds to wait when the key is over its limit, without counting.
    func check(_ key: String, _ rule: RateLimit, now: Int64) -> Int64? {
        windows.withLock { windows in
            guard let window = windows[key], now - window.start < rule.window, window.count >= rule.limit else { return nil }
            return window.start + rule.window - now
        }
    }

    func reset() {
        windows.withLock { $0 = [:] }
    }
}
