/// What the service accepts from what people type, defined once: the client checks a
/// form with the same rules before sending it, so the two never disagree.
public enum InputRules {
    /// local@domain.tld: one @, no spaces, a dot in the domain with text either side of
    /// every dot.
    public static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }

    /// An email as the service keys accounts by it: trimmed and lower case; nil when it
    /// is not an email.
    public static func normalisedEmail(_ text: String) -> String? {
        let email = text.trimmingWhitespace.lowercased()
        return isEmail(email) ? email : nil
    }

    /// A password that would be guessed first (ASVS 2.1.7): one of the most common (a list
    /// shipped with Onboard, `CommonPasswordList`), or one character repeated.
    public static func isCommonPassword(_ password: String) -> Bool {
        let lowered = password.lowercased()
        return common.contains(lowered) || Set(lowered).count == 1
    }

    private static let common = Set(CommonPasswordList.entries)

    /// E.164: `+`, a country code not starting with 0, 8 to 15 digits in all (the API's
    /// documented pattern; a German 5-digit line is too short for SMS sign-in), and for a
    /// country whose plan is known (`numberingPlans`) a national number of a length it
    /// has. Spaces, dashes, dots and brackets people type are dropped; nil when it is not
    /// a number (issue 32: `+114155550199`, 11 national digits in North America, was sent).
    public static func e164(_ phone: String) -> String? {
        let kept = phone.filter { !" -.()".contains($0) }
        guard kept.first == "+" else { return nil }
        let digits = kept.dropFirst()
        guard (8...15).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), digits.first != "0" else { return nil }
        // Country codes are prefix-free: at most one known code begins the number.
        if let (code, plan) = numberingPlans.first(where: { digits.hasPrefix($0.key) }), !plan.lengths.contains(digits.count - code.count) {
            return nil
        }
        return kept
    }

    /// How a country's numbers are written: the lengths of its national significant
    /// numbers (mobile and fixed line) and the trunk prefix dialled before them at home.
    public struct NumberingPlan: Sendable {
        public let lengths: Set<Int>
        public let trunk: String?
    }

    /// The plans of the countries ABBY offers, keyed by calling code: the possible lengths
    /// and national prefixes of Google's libphonenumber metadata (checked against Python's
    /// `phonenumbers` port in the tests).
    public static let numberingPlans: [String: NumberingPlan] = [
        "1": NumberingPlan(lengths: [10], trunk: "1"),
        "44": NumberingPlan(lengths: [9, 10], trunk: "0"),
        "353": NumberingPlan(lengths: [7, 8, 9, 10], trunk: "0"),
        "61": NumberingPlan(lengths: [9], trunk: "0"),
        "64": NumberingPlan(lengths: [8, 9, 10], trunk: "0"),
        "65": NumberingPlan(lengths: [8], trunk: nil),
        "91": NumberingPlan(lengths: [10], trunk: "0"),
        "49": NumberingPlan(lengths: Set(5...15), trunk: "0"),
        "33": NumberingPlan(lengths: [9], trunk: "0"),
        "34": NumberingPlan(lengths: [9], trunk: nil),
        "39": NumberingPlan(lengths: Set(6...12), trunk: nil),
        "31": NumberingPlan(lengths: [9, 11], trunk: "0"),
        "81": NumberingPlan(lengths: [9, 10], trunk: "0"),
        "52": NumberingPlan(lengths: [10], trunk: nil),
        "55": NumberingPlan(lengths: [10, 11], trunk: "0"),
        "27": NumberingPlan(lengths: Set(5...9), trunk: "0"),
    ]
}

extension String {
    /// Without leading and trailing whitespace (Foundation-free).
    public var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }

    /// Trimmed, each run of whitespace inside one space: how a name is kept, so `Ruck
    /// Walker` typed with two spaces is the `Ruck Walker` it looks like.
    public var collapsingWhitespace: String {
        split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether the text can be a person's name as people write theirs: letters of any
    /// script with their marks (`Nguyễn`, `José`), spaces, and the hyphens, apostrophes and
    /// full stops names hold (`Mary-Jane O'Neil`, `D’Angelo`, `J. R. R. Tolkien`), with a
    /// letter first. What cannot be a name is refused: digits, symbols, emoji.
    public var isPersonName: Bool {
        guard let first = first, first.isLetter else { return false }
        return allSatisfy { character in
            character.isLetter || character == " " || "-'’.‐".contains(character)
                || character.unicodeScalars.allSatisfy {
                    $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .spacingMark
                }
        }
    }
}

extension Unicode.Scalar {
    /// A C0 or C1 control (escape, CR, BEL…), DEL, or a bidirectional control (LRM, RLM,
    /// ALM; embeddings and overrides; isolates): what a terminal would act on or reorder.
    public var isControlOrBidi: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// Whether the text holds a control or bidirectional character: refused in every name
    /// and free-text field (issue 31), since other people's screens show them.
    public var hasControlOrBidi: Bool { unicodeScalars.contains(where: \.isControlOrBidi) }

    /// The text with every C0 and C1 control (escape, CR, BEL…) and DEL shown as a visible
    /// sign — its Unicode control picture (␛, ␍, ␇), or � for a C1 control — and every
    /// bidirectional control neutralised (�, so text cannot be reordered), one character
    /// for one: what a terminal is given is never something it would execute. Here, not
    /// in TerminalUI, so the server's own messages (a database's words) use it too.
    /// `keepingNewlines` leaves line breaks to a caller that lays out lines itself.
    public func madeInert(keepingNewlines: Bool = true) -> String {
        guard hasControlOrBidi else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == "\n", keepingNewlines {
                result.append(scalar)
            } else if scalar == "\t" {
                result.append(" ")
            } else if scalar.value < 0x20 {
                // U+2400-U+241F: the control pictures, in the C0 controls' own order.
                result.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            } else if scalar.value == 0x7F {
                result.append("\u{2421}")
            } else if scalar.isControlOrBidi {
                result.append("\u{FFFD}")
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}

extension Character {
    /// 0-9 only (`isNumber` also takes other scripts' digits and fractions).
    public var isASCIIDigit: Bool { isASCII && isNumber }
}
