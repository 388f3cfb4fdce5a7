import CivilCalendar
import InputRules
import ScreenTable

/// The behaviour behind the validation rule names a flow file may use.
public enum Validation {
    /// The message of the first rule the field's value breaks, or nil when it passes.
    /// `today` is the local date, for `not_future`.
    public static func firstFailure(of field: Field, values: [String: String], today: CivilDate? = nil) -> String? {
        firstFailure(of: field, in: values.mapValues(Value.text), today: today)
    }

    /// As above, over context values: multi fields hold lists.
    public static func firstFailure(of field: Field, in context: [String: Value], today: CivilDate? = nil) -> String? {
        firstBroken(of: field, in: context, today: today)?.message
    }

    /// The first rule the field's value breaks, or nil when it passes.
    public static func firstBroken(of field: Field, in context: [String: Value], today: CivilDate? = nil) -> Rule? {
        let values = context.compactMapValues(\.text)
        let picked = context[field.id]?.list
        let value = values[field.id] ?? ""
        return field.rules.first { !passes($0, value: value, picked: picked, values: values, today: today) }
    }

    static func passes(_ rule: Rule, value: String, picked: [String]?, values: [String: String], today: CivilDate?) -> Bool {
        let trimmed = value.trimmingWhitespace
        switch rule.name {
        case .required:
            if let picked { return !picked.isEmpty }
            return !trimmed.isEmpty
        case .minLength:
            return value.count >= (rule.count ?? 0)
        case .maxLength:
            return value.count <= (rule.count ?? Int.max)
        case .email:
            return trimmed.isEmpty || InputRules.isEmail(trimmed)
        case .digits:
            return trimmed.isEmpty || (trimmed.count == rule.count && trimmed.allSatisfy(\.isASCIIDigit))
        case .matches:
            return value == values[rule.field ?? ""] ?? ""
        case .positiveNumber:
            return trimmed.isEmpty || (plainDecimal(trimmed).map { $0 > 0 } ?? false)
        case .url:
            return trimmed.isEmpty || isServiceURL(trimmed)
        case .date:
            return trimmed.isEmpty || CivilDate(trimmed) != nil
        case .notFuture:
            guard let date = CivilDate(trimmed), let today else { return true }
            return date <= today
        case .letters:
            return trimmed.allSatisfy { $0.isLetter || $0 == " " }
        case .personName:
            return trimmed.isPersonName
        case .alphanumeric:
            return trimmed.allSatisfy { $0.isLetter || $0.isASCIIDigit || $0 == " " }
        case .phone:
            guard !trimmed.isEmpty else { return true }
            guard (4...14).contains(trimmed.filter(\.isASCIIDigit).count), trimmed.allSatisfy({ $0.isASCIIDigit || " -.()".contains($0) })
            else { return false }
            // With its country: a number the service will take, by the service's own rule.
            guard let country = rule.field.flatMap({ values[$0] }), let number = PhoneNumber(country: country, digits: trimmed) else {
                return true
            }
            return InputRules.e164(number.e164) != nil
        case .minAge, .maxAge:
            guard let date = CivilDate(trimmed), let today else { return true }
            let age = date.age(on: today)
            return rule.name == .minAge ? age >= (rule.count ?? 0) : age <= (rule.count ?? Int.max)
        case .minValue:
            guard let low = NumberRange(value)?.low ?? Int(trimmed) else { return false }
            return low >= (rule.count ?? Int.min)
        case .maxValue:
            guard !trimmed.isEmpty else { return true }
            guard let number = plainDecimal(trimmed) else { return false }
            return number <= Double(rule.count ?? Int.max)
        case .ordered:
            guard let range = NumberRange(value) else { return false }
            return range.low <= range.high
        case .minSelected:
            return (picked ?? []).count >= (rule.count ?? 0)
        case .notCommon:
            return value.isEmpty || !InputRules.isCommonPassword(value)
        }
    }

    /// `mock://local`, or `http(s)://host[:port][/path]` with no spaces.
    static func isServiceURL(_ text: String) -> Bool {
        if text == "mock://local" { return true }
        guard !text.contains(where: \.isWhitespace) else { return false }
        for scheme in ["http://", "https://"] where text.lowercased().hasPrefix(scheme) {
            let host = text.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" }
            return !host.isEmpty && !host.hasPrefix(":")
        }
        return false
    }

    /// `12`, `7.5`, `.5`: digits with at most one point; nil for anything else.
    static func plainDecimal(_ text: String) -> Double? {
        let points = text.filter { $0 == "." }.count
        guard points <= 1, text.contains(where: \.isASCIIDigit),
            text.allSatisfy({ $0.isASCIIDigit || $0 == "." })
        else { return nil }
        return Double(text.hasPrefix(".") ? "0" + text : text)
    }
}

/// A range field's value, `low-high`.
public struct NumberRange: Equatable, Sendable, CustomStringConvertible {
    public var low: Int
    public var high: Int

    public init(low: Int, high: Int) {
        self.low = low
        self.high = high
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]) else { return nil }
        self.init(low: low, high: high)
    }

    public var description: String { "\(low)-\(high)" }

}
