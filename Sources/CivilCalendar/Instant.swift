#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moments as people and logs write them, from the C library: Foundation's `TimeZone`
/// and date formatters load ICU's data (about 5 ms and a few megabytes), which a launch
/// does not need for an offset and a timestamp.
public enum Instant {
    /// Seconds east of UTC here and now (the `TZ` rules, as `date` uses).
    public static func utcOffset() -> Int64 {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return 0 }
        return Int64(local.tm_gmtoff)
    }

    /// `2026-11-24T06:08:02.123Z`: RFC 3339 in UTC with milliseconds.
    public static func internetTime(milliseconds: Int64) -> String {
        let inDay = (milliseconds % 86_400_000 + 86_400_000) % 86_400_000
        let seconds = inDay / 1000
        let date = CivilDate(milliseconds: milliseconds, utcOffset: 0)
        return "\(date)T\(zeroPadded(seconds / 3600, 2)):\(zeroPadded(seconds / 60 % 60, 2)):\(zeroPadded(seconds % 60, 2)).\(zeroPadded(inDay % 1000, 3))Z"
    }
}
