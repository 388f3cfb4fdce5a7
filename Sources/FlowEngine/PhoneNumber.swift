/// A phone number as typed: a country option (`+44 United Kingdom`) and national digits.
/// Shown grouped as people write it, sent as E.164.
public struct PhoneNumber: Equatable, Sendable {
    /// Country calling code digits, such as `44`.
    public var countryCode: String
    /// National digits as typed, without the trunk `0` some countries write first.
    public var national: String

    /// `country` is a picker option whose first word is `+CODE`; nil when it has none.
    public init?(country: String, digits: String) {
        guard let first = country.split(separator: " ").first, first.hasPrefix("+") else { return nil }
        let code = first.dropFirst()
        guard !code.isEmpty, code.allSatisfy(\.isASCIIDigit) else { return nil }
        countryCode = String(code)
        var national = Substring(digits.filter(\.isASCIIDigit))
        // People type the trunk prefix they dial at home (07700 … in the UK); E.164 drops it.
        if countryCode != "1", national.first == "0" { national = national.dropFirst() }
        self.national = String(national)
    }

    /// `+447700900123`.
    public var e164: String { "+" + countryCode + national }

    /// The national digits grouped as typed: `(555) 010-9999` in North America, else in
    /// threes with the last four kept together (`7700 900 123` reads `7700 900123`).
    public static func formatted(_ digits: String, countryCode: String) -> String {
        let digits = Array(digits.filter(\.isASCIIDigit))
        if countryCode == "1", digits.count <= 10 {
            switch digits.count {
            case 0: return ""
            case 1...3: return "(" + String(digits)
            case 4...6: return "(" + String(digits[0..<3]) + ") " + String(digits[3...])
            default: return "(" + String(digits[0..<3]) + ") " + String(digits[3..<6]) + "-" + String(digits[6...])
            }
        }
        var groups: [String] = []
        var index = 0
        while index < digits.count {
            let left = digits.count - index
            let size = left == 4 ? 4 : min(3, left)
            groups.append(String(digits[index..<(index + size)]))
            index += size
        }
        return groups.joined(separator: " ")
    }
}
