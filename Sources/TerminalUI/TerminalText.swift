import FlowEngine
import InputRules

/// What a terminal is given to draw is never something it would execute (issue 31): text
/// from the service, state files, flow and content files, or a paste. One function for
/// both front ends and `--cast`.
public enum TerminalText {
    /// `text` made inert (`String.madeInert`, InputRules): controls shown as visible signs,
    /// bidi controls neutralised, one character for one, so widths measured after are right.
    public static func safe(_ text: String, keepingNewlines: Bool = true) -> String {
        text.madeInert(keepingNewlines: keepingNewlines)
    }
}

extension ScreenView {
    /// Every text of the view made safe for a terminal (`TerminalText.safe`).
    public var terminalSafe: ScreenView {
        mappingText({ TerminalText.safe($0) }, values: { TerminalText.safe($0, keepingNewlines: false) })
    }

    /// Every text of the view in ASCII, for a terminal whose locale is not UTF-8 (issue 32:
    /// ruck lines kept their `·` under `LANG=C`). A field's value keeps one character for
    /// one, so the cursor stays where it was typed.
    public var asciiFolded: ScreenView {
        mappingText(ASCIIText.fold, values: ASCIIText.foldOneForOne)
    }

    /// The view with `transform` applied to every text it shows, and `values` to what was
    /// typed into its fields.
    func mappingText(_ transform: (String) -> String, values: (String) -> String) -> ScreenView {
        var view = self
        view.logo = logo.map(transform)
        view.title = transform(title)
        view.body = transform(body)
        view.bullets = bullets.map(transform)
        view.items = items.map(transform)
        view.emptyItems = transform(emptyItems)
        view.warnings = warnings.map(transform)
        view.notes = notes.map(transform)
        view.busyLabel = busyLabel.map(transform)
        view.stepLabel = stepLabel.map(transform)
        view.message = message.map { message in
            switch message {
            case .error(let text): .error(transform(text))
            case .notice(let text): .notice(transform(text))
            }
        }
        view.fields = fields.map { field in
            var field = field
            field.label = transform(field.label)
            field.value = values(field.value)
            field.placeholder = transform(field.placeholder)
            field.error = field.error.map(transform)
            field.options = field.options.map(transform)
            field.picked = field.picked.map(transform)
            field.hint = field.hint.map(transform)
            return field
        }
        func mapItems(_ list: [ItemView]) -> [ItemView] {
            list.map { item in
                var item = item
                item.label = transform(item.label)
                item.linkPrompt = item.linkPrompt.map(transform)
                return item
            }
        }
        view.options = mapItems(options)
        view.buttons = mapItems(buttons)
        view.checklist = checklist.map { line in
            var line = line
            line.label = transform(line.label)
            line.status =
                switch line.status {
                case .done(let detail): .done(transform(detail))
                case .fellBack(let detail): .fellBack(transform(detail))
                case .failed(let detail): .failed(transform(detail))
                default: line.status
                }
            return line
        }
        return view
    }
}

/// Text for a terminal that can show only ASCII: typographic marks as their ASCII
/// stand-ins, letters without their accents, anything else as `?`.
public enum ASCIIText {
    static let standIns: [Character: String] = [
        "·": "-", "•": "*", "—": "-", "–": "-", "‘": "'", "’": "'", "“": "\"", "”": "\"", "…": "...",
        "→": "->", "←": "<-", "↑": "^", "↓": "v", "✓": "+", "✔": "+", "✗": "x", "✘": "x", "×": "x",
        "\u{00A0}": " ", "€": "EUR", "£": "GBP", "°": " deg",
    ]

    public static func fold(_ text: String) -> String {
        guard !text.allSatisfy(\.isASCII) else { return text }
        return text.map { character in
            character.isASCII ? String(character) : standIns[character] ?? withoutAccents(character)
        }.joined()
    }

    /// One ASCII character for each character (a typed value and its cursor).
    public static func foldOneForOne(_ text: String) -> String {
        guard !text.allSatisfy(\.isASCII) else { return text }
        return text.map { character in
            if character.isASCII { return String(character) }
            if let standIn = standIns[character], standIn.count == 1 { return standIn }
            return withoutAccents(character)
        }.joined()
    }

    /// `é` as `e`: the letter of its canonical decomposition; `?` when there is none.
    /// Without Foundation there is no decomposition to ask for, so the scalar's name offers
    /// the letter (`LATIN SMALL LETTER E WITH ACUTE`) and canonical equivalence, which
    /// `==` on strings is, confirms it: the letter and one or two combining marks.
    static func withoutAccents(_ character: Character) -> String {
        if let ascii = character.unicodeScalars.first(where: \.isASCII) { return String(Character(ascii)) }
        guard character.unicodeScalars.count == 1, let name = character.unicodeScalars.first?.properties.name,
            let head = name.split(separator: " WITH ").first, let letter = head.split(separator: " ").last, letter.count == 1,
            letter.first!.isASCII, letter.first!.isLetter
        else { return "?" }
        let base = head.contains("SMALL") ? letter.lowercased() : String(letter)
        let whole = String(character)
        let marks = (0x300...0x36F).compactMap(Unicode.Scalar.init).map { String(Character($0)) }
        for mark in marks where base + mark == whole { return base }
        // Two marks are named as two (`… WITH CIRCUMFLEX AND ACUTE`).
        guard name.contains(" AND ") else { return "?" }
        for first in marks {
            for second in marks where base + first + second == whole { return base }
        }
        return "?"
    }
}
