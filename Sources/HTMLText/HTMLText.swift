/// Text as HTML shows it, never as markup: the one escaping every page Onboard writes
/// uses (the server's device and development pages, the gallery), in text and in
/// quoted attribute values alike.
public enum HTMLText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
