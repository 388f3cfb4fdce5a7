import CivilCalendar
import InputRules
import ServiceAPI

/// The service's own check of ABBY's profile fields, with the spec's messages: the client
/// checks first, but the service never trusts it.
enum ProfileRules {
    /// Keys the account's own answer uses, or the service writes itself: a profile field
    /// of that name would read as the account's.
    static let reserved: Set<String> = ["email", "phone", "user_id", "is_anonymous", "pro", Profile.nameOptionsField]

    /// Names as they are kept: trimmed, inner runs of whitespace one space, so two names
    /// that look alike are alike (`Ruck  Walker` is `Ruck Walker`, and taken with it).
    static func normalised(_ fields: [String: FieldValue]) -> [String: FieldValue] {
        fields.reduce(into: fields) { result, field in
            if ["full_name", "display_name"].contains(field.key), case .text(let name) = field.value {
                result[field.key] = .text(name.collapsingWhitespace)
            }
        }
    }

    static func check(_ fields: [String: FieldValue], today: CivilDate) throws {
        for (key, value) in fields {
            if reserved.contains(key) { throw ServiceError(.invalidInput, "The profile field '\(key)' is the service's own.") }
            switch value {
            case .text(let text) where text.hasControlOrBidi: throw controls(key)
            case .list(let items) where items.contains(where: \.hasControlOrBidi): throw controls(key)
            default: break
            }
            switch (key, value) {
            case ("full_name", .text(let name)):
                let name = name.collapsingWhitespace
                guard (2...50).contains(name.count), name.isPersonName else {
                    throw ServiceError(.invalidInput, "Please enter your full legal name")
                }
            case ("display_name", .text(let name)):
                let name = name.collapsingWhitespace
                guard (2...30).contains(name.count), name.allSatisfy({ $0.isLetter || ($0.isASCII && $0.isNumber) || $0 == " " }) else {
                    throw ServiceError(.invalidInput, "Choose a display name (2-30 characters)")
                }
            case ("birth_date", .text(let text)):
                guard let age = CivilDate(text)?.age(on: today), age >= 18 else {
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

    static func controls(_ key: String) -> ServiceError {
        ServiceError(.invalidInput, "The profile field '\(key)' cannot hold control or text-direction characters.")
    }
}
