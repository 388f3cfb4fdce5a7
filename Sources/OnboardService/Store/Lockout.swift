/// The count both stores keep for a lockout (failed log-ins), in one statement: a window
/// over starts again at one; within it, a count at the limit stays one over it (which
/// marks the window as over) and the attempt is not judged; otherwise one more.
public enum Lockout {
    /// The upsert, in a store's placeholder style: `?` (SQLite) or `$` (PostgreSQL,
    /// numbered). Binds key, now, window, limit; returns window_start and count.
    public static func counting(placeholders style: String) -> String {
        let (key, now, window, limit) = style == "?" ? ("?1", "?2", "?3", "?4") : ("$1", "$2", "$3", "$4")
        return """
            INSERT INTO lockouts AS l (key, window_start, count) VALUES (\(key), \(now), 1)
            ON CONFLICT (key) DO UPDATE SET
                window_start = CASE WHEN \(now) - l.window_start >= \(window) THEN \(now) ELSE l.window_start END,
                count = CASE WHEN \(now) - l.window_start >= \(window) THEN 1
                             WHEN l.count >= \(limit) THEN \(limit) + 1
                             ELSE l.count + 1 END
            RETURNING window_start, count
            """
    }

    /// The seconds to wait, once the count is over the limit.
    public static func wait(start: Int64?, count: Int64?, _ rule: RateLimit, now: Int64) -> Int64? {
        guard let start, let count, count > Int64(rule.limit) else { return nil }
        return start + rule.window - now
    }
}
