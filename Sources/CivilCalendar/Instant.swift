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
        return
            "\(date)T\(zeroPadded(seconds / 3600, 2)):\(zeroPadded(seconds / 60 % 60, 2)):\(zeroPadded(seconds % 60, 2)).\(zeroPadded(inDay % 1000, 3))Z"
    }

    private static func isDigits(_ text: Substring) -> Bool { text.utf8.allSatisfy { (0x30...0x39).contains($0) } }

    /// Milliseconds since 1970 of `2026-11-24T06:08:02.123Z` (the milliseconds optional),
    /// as `internetTime` writes it; nil for anything else.
    public static func milliseconds(internetTime text: String) -> Int64? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = CivilDate(String(parts[0])), parts[1].hasSuffix("Z") else { return nil }
        let clock = parts[1].dropLast().split(separator: ".", omittingEmptySubsequences: false)
        guard clock.count <= 2 else { return nil }
        let fields = clock[0].split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, fields.allSatisfy({ $0.count == 2 && isDigits($0) }),
            let hour = Int64(fields[0]), let minute = Int64(fields[1]), let second = Int64(fields[2]),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction: Int64 = 0
        if clock.count == 2 {
            guard (1...3).contains(clock[1].count), isDigits(clock[1]), let digits = Int64(clock[1]) else {
                return nil
            }
            fraction = digits * [1, 100, 10, 1][clock[1].count]
        }
        return (Int64(date.daysSince1970) * 86_400 + hour * 3600 + minute * 60 + second) * 1000 + fraction
    }
}
