/// Calendar dates as `YYYY-MM-DD` without Foundation: the day count since 1970 and back
/// (Howard Hinnant's civil-from-days), enough for date fields and "not in the future".
public struct CivilDate: Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The local date at `milliseconds` since 1970, for a UTC offset in seconds.
    public init(milliseconds: Int64, utcOffset: Int64) {
        let days = Int(((milliseconds / 1000 + utcOffset) - (((milliseconds / 1000 + utcOffset) % 86_400 + 86_400) % 86_400)) / 86_400)
        self.init(daysSince1970: days)
    }

    public init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Parses `YYYY-MM-DD`, rejecting days a month does not have. Only ASCII digits:
    /// `Int` alone would also take "+1" for a month.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public func adding(days: Int) -> CivilDate {
        CivilDate(daysSince1970: daysSince1970 + days)
    }

    public func adding(months: Int) -> CivilDate {
        let total = year * 12 + (month - 1) + months
        let newYear = total / 12
        let newMonth = total % 12 + 1
        return CivilDate(year: newYear, month: newMonth, day: min(day, Self.days(inMonth: newMonth, year: newYear)))
    }

    public static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public var description: String {
        "\(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))"
    }

    /// Whole years from this date (a birthday) to `today`.
    public func age(on today: CivilDate) -> Int {
        let birthdayPassed = (today.month, today.day) >= (month, day)
        return today.year - year - (birthdayPassed ? 0 : 1)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        lhs.daysSince1970 < rhs.daysSince1970
    }
}

/// `7` as `07`: the digits of a date or a time, at least `width` of them.
func zeroPadded<Number: BinaryInteger>(_ value: Number, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
