/// Durations as people write them: `90s`, `15m`, `25h`, `30d`, optionally signed.
public enum DurationText {
    /// Seconds, or nil when the text is not a duration: one or more amounts with a unit
    /// (`s`, `m`, `h`, `d`), optionally signed, such as `25h`, `-90m` or `1d2h30m`; nil
    /// too when the total does not fit in 64 bits.
    public static func seconds(_ text: String) -> Int64? {
        var body = Substring(text.trimmingCharacters(in: " "))
        var sign: Int64 = 1
        if body.first == "-" || body.first == "+" {
            if body.first == "-" { sign = -1 }
            body = body.dropFirst()
        }
        guard !body.isEmpty else { return nil }
        var total: Int64 = 0
        var amount = ""
        for character in body {
            if character.isASCII, character.isNumber {
                amount.append(character)
                continue
            }
            let scale: Int64
            switch character {
            case "s": scale = 1
            case "m": scale = 60
            case "h": scale = 3600
            case "d": scale = 86_400
            default: return nil
            }
            guard let number = Int64(amount) else { return nil }
            let (product, overflow) = number.multipliedReportingOverflow(by: scale)
            let (sum, sumOverflow) = total.addingReportingOverflow(product)
            guard !overflow, !sumOverflow else { return nil }
            total = sum
            amount = ""
        }
        guard amount.isEmpty else { return nil }  // a number without its unit
        return sign * total
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
