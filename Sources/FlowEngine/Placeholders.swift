/// Fills `{key}` and `{key|fallback}` in screen text from the flow context, and
/// `{key:left}` with the time left until the instant `key` holds (ms), as `9:58`: a
/// countdown, redrawn on the clock's ticks.
public enum Placeholders {
    public static func fill(_ text: String, from context: [String: Value], now: Int64 = 0) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                result += rest[open...]
                return result
            }
            let inside = rest[rest.index(after: open)..<close]
            let parts = inside.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            var key = String(parts[0])
            let fallback = parts.count > 1 ? String(parts[1]) : ""
            if key.hasSuffix(":left") {
                key.removeLast(":left".count)
                if let until = context[key]?.text.flatMap({ Int64($0) }) {
                    result += Self.timeLeft(until - now)
                } else {
                    result += fallback
                }
                rest = rest[rest.index(after: close)...]
                continue
            }
            switch context[key] {
            case .text(let value) where !value.isEmpty: result += value
            case .list(let values) where !values.isEmpty: result += values.joined(separator: ", ")
            default: result += fallback
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }

    /// `9:58`, rounded up (a code with 0.4 s left still has time), never below `0:00`.
    static func timeLeft(_ milliseconds: Int64) -> String {
        let seconds = max(0, (milliseconds + 999) / 1000)
        let minutes = seconds / 60, rest = seconds % 60
        return "\(minutes):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}
