/// Turns keys as the terminal library read them — keys its terminfo entry knows, and
/// Esc plus characters for every sequence it does not — into the keys and pastes a
/// person meant:
/// - escape sequences missing from the terminfo entry (`EscapeSequence`), so Home under
///   tmux is Home, never Esc (going back) followed by `[1~` typed into a field;
/// - Alt held with a key, which terminals send as Esc first (`ESC b` is Alt-B);
/// - bracketed pastes (`ESC [ 200 ~ … ESC [ 201 ~`) as one text, so a newline in a paste
///   never presses a button.
/// An unknown but complete sequence is dropped whole. A sequence cut off at the end of
/// one read is held for the next; Esc alone at the end of a read is Esc (the library has
/// already waited for more).
public struct KeyDecoder: Sendable {
    /// The most characters a paste keeps: a field holds far less, and is told the paste
    /// was cut.
    public static let pasteLimit = 65_536

    private var held: [Key] = []
    private var inPaste = false
    private var pasted = ""
    private var pastedCount = 0

    public init() {}

    /// Decodes one read's keys.
    public mutating func decode(_ read: [Key]) -> [TerminalInput] {
        let keys = held + read
        held = []
        var output: [TerminalInput] = []
        var index = 0
        while index < keys.count {
            let key = keys[index]
            if key == .escape {
                switch EscapeSequence.parse(keys, from: index) {
                case .incomplete:
                    held = Array(keys[index...])
                    return output
                case .sequence(let length, let meaning):
                    index += length
                    apply(meaning, to: &output)
                    continue
                case .none:
                    if inPaste, index + 1 == keys.count {
                        // Perhaps the start of the end marker: wait for the rest.
                        held = [key]
                        return output
                    }
                }
            }
            if key == .escape, !inPaste, index + 1 < keys.count, keys[index + 1] == .escape {
                // rxvt and others send Alt with a special key as Esc before its sequence.
                switch EscapeSequence.parse(keys, from: index + 1) {
                case .incomplete:
                    held = Array(keys[index...])
                    return output
                case .sequence(let length, .key(let inner)):
                    output.append(.key(Key.with(inner, .alt)))
                    index += 1 + length
                    continue
                default:
                    break
                }
            }
            index += 1
            if inPaste {
                append(key)
            } else if key == .escape, index < keys.count, Self.takesAlt(keys[index]) {
                // Esc then a character in the same read: Alt held with that key.
                output.append(.key(Key.with(keys[index], .alt)))
                index += 1
            } else {
                output.append(.key(key))
            }
        }
        return output
    }

    /// Keys that Alt combines with when Esc comes just before them: characters and
    /// Backspace. Esc then Enter, Tab or an arrow stays two keys, as a script types them.
    private static func takesAlt(_ key: Key) -> Bool {
        switch key {
        case .character, .backspace: true
        default: false
        }
    }

    private mutating func apply(_ meaning: EscapeSequence.Meaning, to output: inout [TerminalInput]) {
        switch meaning {
        case .pasteStart where !inPaste:
            inPaste = true
            pasted = ""
            pastedCount = 0
        case .pasteEnd where inPaste:
            inPaste = false
            output.append(.paste(pasted))
            pasted = ""
        case .key(let key) where !inPaste:
            output.append(.key(key))
        default:
            break  // inside a paste, sequences are not text; elsewhere, ignored ones go
        }
    }

    /// Keys inside a paste become its text; keys that are not text are dropped.
    private mutating func append(_ key: Key) {
        let text: String? =
            switch key {
            case .character(let character): String(character)
            case .enter: "\n"
            case .tab: "\t"
            default: nil
            }
        guard let text, pastedCount < Self.pasteLimit else { return }
        pasted += text
        pastedCount += 1
    }
}
