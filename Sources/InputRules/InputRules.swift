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

    /// E.164: `+`, a country code not starting with 0, 8 to 15 digits in all. Spaces,
    /// dashes, dots and brackets people type are dropped; nil when it is not a number.
    public static func e164(_ phone: String) -> String? {
        let kept = phone.filter { !" -.()".contains($0) }
        guard kept.first == "+" else { return nil }
        let digits = kept.dropFirst()
        guard (8...15).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), digits.first != "0" else { return nil }
        return kept
    }
}

extension String {
    /// Without leading and trailing whitespace (Foundation-free).
    public var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}

extension Character {
    /// 0-9 only (`isNumber` also takes other scripts' digits and fractions).
    public var isASCIIDigit: Bool { isASCII && isNumber }
}
