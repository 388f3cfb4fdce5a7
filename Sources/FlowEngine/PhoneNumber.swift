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

    /// How each country the picker offers writes its national numbers: group sizes of
    /// the national significant number (without the trunk 0). The last group takes
    /// whatever is left.
    public static let groups: [String: [Int]] = [
        "44": [4, 6], // 07700 900123
        "353": [2, 3, 4], // 087 123 4567
        "61": [3, 3, 3], // 0412 345 678
        "64": [2, 3, 4], // 021 123 4567
        "65": [4, 4], // 8123 4567
        "91": [5, 5], // 98765 43210
        "49": [4, 7], // 01512 3456789
        "33": [1, 2, 2, 2, 2], // 06 12 34 56 78
        "34": [3, 2, 2, 2], // 612 34 56 78
        "39": [3, 3, 4], // 312 345 6789
        "31": [1, 8], // 06 12345678
        "81": [2, 4, 4], // 090 1234 5678
        "52": [2, 4, 4], // 55 1234 5678
        "55": [2, 5, 4], // 11 91234 5678
        "27": [2, 3, 4], // 082 123 4567
    ]

    /// The national digits grouped as typed: `(555) 010-9999` in North America, else as
    /// the country writes them (`07700 900123` in the UK), a trunk 0 typed first kept on
    /// the first group; in threes for a country without data.
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
        let trunk = countryCode != "1" && digits.first == "0" ? "0" : ""
        let national = Array(digits.dropFirst(trunk.count))
        let sizes = groups[countryCode] ?? Array(repeating: 3, count: max(1, (national.count + 2) / 3))
        var parts: [String] = []
        var index = 0
        for (position, size) in sizes.enumerated() where index < national.count {
            let end = position == sizes.count - 1 ? national.count : min(national.count, index + size)
            parts.append(String(national[index..<end]))
            index = end
        }
        guard !parts.isEmpty else { return trunk }
        parts[0] = trunk + parts[0]
        return parts.joined(separator: " ")
    }
}
