import TerminalUI

/// Finds bracketed pastes (`ESC [200~ … ESC [201~`) in what ncurses reads, so a paste
/// becomes one piece of text for the focused field instead of keys: a newline in it
/// never presses a button, and its control characters are dropped by the field.
///
/// ncurses does not know the markers as keys, so they arrive as ESC and characters.
/// A paste may span several reads; the decoder keeps its place between them.
struct BracketedPaste {
    /// What the decoder passes on: a key as read, or a finished paste.
    enum Output: Equatable {
        case key(Key)
        case paste(String)
    }

    /// The most text a paste keeps: a field holds far less, and is told the paste was cut.
    static let keptLimit = 65_536

    private static let start: [Character] = ["[", "2", "0", "0", "~"]
    private static let end: [Character] = ["[", "2", "0", "1", "~"]

    private var inPaste = false
    private var pasted = ""
    private var keptCount = 0

    /// Decodes one read's keys. A marker cut short at the end of a read is passed on as
    /// the keys it was (Esc pressed alone must not wait for the next key).
    mutating func decode(_ keys: [Key]) -> [Output] {
        var output: [Output] = []
        var index = 0
        while index < keys.count {
            let key = keys[index]
            if key == .escape, let matched = Self.marker(in: keys, after: index) {
                index += 1 + Self.start.count
                if matched == .start, !inPaste {
                    inPaste = true
                    pasted = ""
                    keptCount = 0
                } else if matched == .end, inPaste {
                    inPaste = false
                    output.append(.paste(pasted))
                    pasted = ""
                }
                continue
            }
            index += 1
            guard inPaste else {
                output.append(.key(key))
                continue
            }
            guard let text = Self.text(of: key) else { continue }
            if keptCount < Self.keptLimit {
                pasted += text
                keptCount += 1
            }
        }
        return output
    }

    private enum Marker { case start, end }

    private static func marker(in keys: [Key], after index: Int) -> Marker? {
        let following = keys.dropFirst(index + 1).prefix(start.count).map { key -> Character? in
            if case .character(let character) = key { return character }
            return nil
        }
        if following == start.map(Optional.some) { return .start }
        if following == end.map(Optional.some) { return .end }
        return nil
    }

    /// The text a key stands for inside a paste; other keys are dropped.
    private static func text(of key: Key) -> String? {
        switch key {
        case .character(let character): String(character)
        case .enter: "\n"
        case .tab: "\t"
        default: nil
        }
    }
}
