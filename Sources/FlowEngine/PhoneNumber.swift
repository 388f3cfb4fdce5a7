import InputRules

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
        national = Self.nationalNumber(String(digits.filter(\.isASCIIDigit)), countryCode: countryCode)
    }

    /// The national significant number in what people type or paste: without the
    /// international prefix and country code dialled from abroad (00 44 …), a
    /// country code pasted with the number (+44 7700 900123), or the trunk prefix dialled
    /// at home (07700 … in the UK, 1 415 … in North America).
    static func nationalNumber(_ digits: String, countryCode code: String) -> String {
        guard let plan = InputRules.numberingPlans[code] else {
            // A country without data: the trunk 0 most of the world dials.
            return code != "1" && digits.first == "0" ? String(digits.dropFirst()) : digits
        }
        func withoutTrunk(_ number: Substring) -> Substring {
            guard let trunk = plan.trunk, number.hasPrefix(trunk) else { return number }
            return number.dropFirst(trunk.count)
        }
        var number = Substring(digits)
        if number.hasPrefix("00" + code) { return String(withoutTrunk(number.dropFirst(2 + code.count))) }
        number = withoutTrunk(number)
        if !plan.lengths.contains(number.count), number.hasPrefix(code),
            plan.lengths.contains(withoutTrunk(number.dropFirst(code.count)).count)
        {
            number = withoutTrunk(number.dropFirst(code.count))
        }
        return String(number)
    }

    /// What a phone field keeps of typed or pasted text: its digits. A number written with
    /// its `+` and country code (`+44 7700 900123`, `+1 (415) 555-0199`, `+44 (0)7700 …`)
    /// loses the code, and picks its country when the picker offers it.
    public static func typed(_ text: String, country: String, options: [String]) -> (country: String, digits: String) {
        let trimmed = text.trimmingWhitespace
        let digits = trimmed.filter(\.isASCIIDigit)
        guard trimmed.hasPrefix("+") else { return (country, digits) }
        // Calling codes are prefix-free: at most one option's code begins the digits.
        for option in [country] + options {
            guard let code = PhoneNumber(country: option, digits: "")?.countryCode, digits.hasPrefix(code) else { continue }
            var national = Substring(digits.dropFirst(code.count))
            if let trunk = InputRules.numberingPlans[code]?.trunk, trunk == "0", national.hasPrefix(trunk) {
                national = national.dropFirst()
            }
            return (option, String(national))
        }
        return (country, digits)
    }

    /// Whether the number has a length its country's numbers have (any, for a country
    /// without data).
    public var hasPossibleLength: Bool {
        InputRules.numberingPlans[countryCode].map { $0.lengths.contains(national.count) } ?? true
    }

    /// `+447700900123`.
    public var e164: String { "+" + countryCode + national }

    /// How each country the picker offers writes its national numbers: group sizes of
    /// the national significant number (without the trunk 0). The last group takes
    /// whatever is left.
    public static let groups: [String: [Int]] = [
        "44": [4, 6],  // 07700 900123
        "353": [2, 3, 4],  // 087 123 4567
        "61": [3, 3, 3],  // 0412 345 678
        "64": [2, 3, 4],  // 021 123 4567
        "65": [4, 4],  // 8123 4567
        "91": [5, 5],  // 98765 43210
        "49": [4, 7],  // 01512 3456789
        "33": [1, 2, 2, 2, 2],  // 06 12 34 56 78
        "34": [3, 2, 2, 2],  // 612 34 56 78
        "39": [3, 3, 4],  // 312 345 6789
        "31": [1, 8],  // 06 12345678
        "81": [2, 4, 4],  // 090 1234 5678
        "52": [2, 4, 4],  // 55 1234 5678
        "55": [2, 5, 4],  // 11 91234 5678
        "27": [2, 3, 4],  // 082 123 4567
    ]

    /// The digits grouped as typed: `(555) 010-9999` in North America, else as the country
    /// writes them (`07700 900123` in the UK), in threes for a country without data. A
    /// trunk prefix typed first stays on the first group (`07700 900123`, `1 (415) 555-0199`);
    /// a country code typed or pasted before the number shows as one (`+44 7700 900123`).
    public static func formatted(_ digits: String, countryCode: String) -> String {
        let digits = digits.filter(\.isASCIIDigit)
        let national = Array(nationalNumber(digits, countryCode: countryCode))
        let lead = String(digits.prefix(digits.count - national.count))
        let trunk = InputRules.numberingPlans[countryCode]?.trunk ?? (countryCode == "1" ? nil : "0")
        let prefix = lead.isEmpty ? "" : lead == trunk ? lead : "+" + countryCode
        let grouped = group(national, countryCode: countryCode, hasTrunk: !lead.isEmpty)
        guard !prefix.isEmpty else { return grouped }
        // A trunk 0 is written joined to the first group; anything else apart.
        return prefix == "0" ? prefix + grouped : grouped.isEmpty ? prefix : prefix + " " + grouped
    }

    /// A national number in its country's groups.
    static func group(_ national: [Character], countryCode: String, hasTrunk: Bool = false) -> String {
        if countryCode == "1", national.count <= 10 {
            switch national.count {
            case 0: return ""
            // After a typed trunk 1, the area code's bracket waits for its third digit, as
            // libphonenumber's as-you-type formatter writes it (`1 23`, then `1 (234`):
            // two digits bracketed read as a broken number.
            case 1...2 where hasTrunk: return String(national)
            case 1...3: return "(" + String(national)
            case 4...6: return "(" + String(national[0..<3]) + ") " + String(national[3...])
            default: return "(" + String(national[0..<3]) + ") " + String(national[3..<6]) + "-" + String(national[6...])
            }
        }
        let sizes = groups[countryCode] ?? Array(repeating: 3, count: max(1, (national.count + 2) / 3))
        var parts: [String] = []
        var index = 0
        for (position, size) in sizes.enumerated() where index < national.count {
            let end = position == sizes.count - 1 ? national.count : min(national.count, index + size)
            parts.append(String(national[index..<end]))
            index = end
        }
        return parts.joined(separator: " ")
    }
}
