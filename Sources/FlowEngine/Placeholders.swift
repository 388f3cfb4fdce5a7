/// Fills `{key}` and `{key|fallback}` in screen text from the flow context.
public enum Placeholders {
    public static func fill(_ text: String, from context: [String: Value]) -> String {
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
            let key = String(parts[0])
            let fallback = parts.count > 1 ? String(parts[1]) : ""
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
}
