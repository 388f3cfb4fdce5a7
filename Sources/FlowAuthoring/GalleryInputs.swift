import CivilCalendar
import FlowEngine
import ScreenTable

/// What the gallery types to reach a state: a value each field takes (so a form's call
/// goes), and a value that breaks one rule (so its message shows). Both are checked with
/// the engine's own validation, never assumed.
enum GalleryInputs {
    /// Tried in order until one passes every rule of the field.
    static let candidates = [
        "Sam Lee", "qa@example.org", "correct horse battery 7", "5.5", "30", "https://example.org", "123456",
        "+6591234567", "91234567", "2015550123", "+12015550123", "2000-01-15", "Baby", "Sam",
    ]

    /// A value for `field` that passes all its rules, given what the form holds already
    /// (a confirmation matches its password); nil when none of the candidates does.
    static func valid(for field: Field, values: [String: String], today: CivilDate) -> String? {
        let matching = field.rules.compactMap { $0.name == .matches ? $0.field.flatMap { values[$0] } : nil }
        return (matching + candidates).first { candidate in
            var trial = values
            trial[field.id] = candidate
            return Validation.firstFailure(of: field, values: trial, today: today) == nil
        }
    }

    /// A value that breaks `rule` of `field` and shows its message first, given the
    /// form's values; nil when the field cannot hold such a value (a widget kept within
    /// its bounds).
    static func breaking(_ rule: Rule, of field: Field, in context: [String: Value], today: CivilDate) -> Value? {
        let count = rule.count ?? 0
        let tries: [Value] =
            switch rule.name {
            case .required: [field.kind.emptyValue]
            case .minSelected: [.list([])]
            case .minLength:
                [String(repeating: "a", count: max(0, count - 1)), String(repeating: "1", count: max(0, count - 1))].map(Value.text)
            case .maxLength: [.text(String(repeating: "a", count: count + 1))]
            case .email: [.text("no-at-sign")]
            case .digits: [.text("12")]
            case .matches: [.text("something else 9")]
            case .positiveNumber: [.text("0"), .text("none")]
            case .url: [.text("example.org")]
            case .date: [.text("2023-02-30")]
            case .notFuture: [.text("\(today.adding(days: 400))")]
            case .letters: [.text("abc1")]
            case .personName: [.text("Sam 1")]
            case .alphanumeric: [.text("bad!")]
            case .phone: [.text("123")]
            case .minAge: [.text("\(today)")]
            case .maxAge: [.text("1900-01-01")]
            case .minValue: [.text("\(count - 1)")]
            case .maxValue: [.text("\(count + 1)")]
            case .ordered: []
            case .notCommon: [.text("password1")]
            }
        return tries.first { value in
            var trial = context
            trial[field.id] = value
            return Validation.firstFailure(of: field, in: trial, today: today) == rule.message
        }
    }
}
