import TextWidth

/// Column widths by the rule ncurses uses (libc `wcwidth` per code point), so the
/// Frame and the terminal agree on where every character lands.
public enum TextMetrics {
    public enum LocaleSupport: Sendable {
        /// The user's locale is UTF-8: draw Unicode.
        case utf8
        /// Only the C.UTF-8 fallback is: measure wide characters, but draw ASCII.
        case fallback
        case none
    }

    /// Sets the process locale from the environment (call once, first thing), falling
    /// back to C.UTF-8 so wide characters can still be read and measured.
    @discardableResult
    public static func prepareLocale() -> LocaleSupport {
        switch onboard_setup_locale() {
        case 2: .utf8
        case 1: .fallback
        default: .none
        }
    }

    /// Columns a grapheme takes. Zero-width ones join the previous cell, as in ncurses.
    public static func width(of character: Character) -> Int {
        var total = 0
        for scalar in character.unicodeScalars {
            let width = Int(onboard_wcwidth(scalar.value))
            if width > 0 {
                total += width
            } else if width < 0, scalar.value >= 0x80, onboard_locale_is_utf8() == 0 {
                total += 1  // no UTF-8 locale: libc knows no widths, assume one column
            }
        }
        return total
    }

    public static func width(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// The longest prefix that fits in `columns`, with `…` when cut.
    public static func truncate(_ text: String, to columns: Int, ellipsis: String = "…") -> String {
        guard width(of: text) > columns else { return text }
        guard columns > 0 else { return "" }
        let room = columns - width(of: ellipsis)
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = width(of: character)
            if used + characterWidth > room { break }
            result.append(character)
            used += characterWidth
        }
        return result + (room >= 0 ? ellipsis : "")
    }

    /// Word-wraps to `columns` (`rest` for every line after the first: a hanging indent),
    /// keeping explicit line breaks. A word longer than a line is broken, each piece but
    /// the last ending in `breakMark`, so a cut (an id, a link) never reads as its end.
    public static func wrap(_ text: String, to columns: Int, rest: Int? = nil, breakMark: String = "") -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        var limit: Int { lines.isEmpty ? columns : max(1, rest ?? columns) }
        let markWidth = width(of: breakMark)
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var word = String(word)
                var wordWidth = width(of: word)
                while wordWidth > limit {
                    if !line.isEmpty {
                        lines.append(line)
                        line = ""
                        lineWidth = 0
                        continue
                    }
                    let mark = limit > markWidth ? breakMark : ""
                    let head = truncate(word, to: limit - width(of: mark), ellipsis: "")
                    lines.append(head + mark)
                    word = String(word.dropFirst(head.count))
                    wordWidth = width(of: word)
                }
                if word.isEmpty { continue }
                if lineWidth == 0 {
                    line = word
                    lineWidth = wordWidth
                } else if lineWidth + 1 + wordWidth <= limit {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                } else {
                    lines.append(line)
                    line = word
                    lineWidth = wordWidth
                }
            }
            lines.append(line)
        }
        return lines
    }
}
