/// Durations as people write them: `90s`, `15m`, `25h`, `30d`, optionally signed.
public enum DurationText {
    /// Seconds, or nil when the text is not a duration.
    public static func seconds(_ text: String) -> Int64? {
        var body = Substring(text.trimmingCharacters(in: " "))
        var sign: Int64 = 1
        if body.first == "-" || body.first == "+" {
            if body.first == "-" { sign = -1 }
            body = body.dropFirst()
        }
        guard let unit = body.last, let amount = Int64(body.dropLast()), amount >= 0 else { return nil }
        let scale: Int64
        switch unit {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        case "d": scale = 86_400
        default: return nil
        }
        let (product, overflow) = amount.multipliedReportingOverflow(by: scale)
        return overflow ? nil : sign * product
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
