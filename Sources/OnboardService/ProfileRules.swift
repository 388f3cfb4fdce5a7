/// The service's own check of ABBY's profile fields, with the spec's messages: the client
/// checks first, but the service never trusts it.
enum ProfileRules {
    static func check(_ fields: [String: FieldValue], today: (year: Int, month: Int, day: Int)) throws {
        for (key, value) in fields {
            switch (key, value) {
            case ("full_name", .text(let name)):
                let name = name.trimmingWhitespace
                guard (2...50).contains(name.count), name.allSatisfy({ $0.isLetter || $0 == " " }) else {
                    throw ServiceError(.invalidInput, "Please enter your full legal name")
                }
            case ("display_name", .text(let name)):
                let name = name.trimmingWhitespace
                guard (2...30).contains(name.count), name.allSatisfy({ $0.isLetter || ($0.isASCII && $0.isNumber) || $0 == " " }) else {
                    throw ServiceError(.invalidInput, "Choose a display name (2-30 characters)")
                }
            case ("birth_date", .text(let text)):
                guard let age = age(born: text, today: today), age >= 18 else {
                    throw ServiceError(.invalidInput, "You must be 18+ to use ABBY")
                }
                guard age <= 99 else { throw ServiceError(.invalidInput, "Please check your date of birth: ABBY is for ages 18 to 99.") }
            case ("age_range", .text(let text)):
                let parts = text.split(separator: "-").compactMap { Int($0) }
                guard parts.count == 2, parts[0] >= 18, parts[0] <= 99 else {
                    throw ServiceError(.invalidInput, "Minimum age must be at least 18")
                }
                guard parts[1] >= parts[0], parts[1] <= 99 else {
                    throw ServiceError(.invalidInput, "Maximum age cannot be less than minimum")
                }
            case (_, .text(let text)) where text.count > 200:
                throw ServiceError(.invalidInput, "The profile field '\(key)' is too long.")
            case (_, .list(let items)) where items.count > 50 || items.contains { $0.count > 200 }:
                throw ServiceError(.invalidInput, "The profile field '\(key)' is too long.")
            default:
                break
            }
        }
    }

    /// Whole years from a `YYYY-MM-DD` birthday to `today`; nil for a date that is not real.
    static func age(born text: String, today: (year: Int, month: Int, day: Int)) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        return today.year - year - ((today.month, today.day) >= (month, day) ? 0 : 1)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The UTC calendar date of a time in seconds since 1970 (civil-from-days).
    static func civilDate(seconds: Int64) -> (year: Int, month: Int, day: Int) {
        let days = Int((seconds >= 0 ? seconds : seconds - 86_399) / 86_400) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
