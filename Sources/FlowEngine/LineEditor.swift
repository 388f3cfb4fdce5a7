/// Readline's editing commands beyond typing a character and Backspace. Left, Right,
/// Home and End are intents of their own: on a widget they change its value instead.
public enum TextEdit: Equatable, Sendable {
    /// Alt-B, Alt-Left, Ctrl-Left.
    case wordLeft
    /// Alt-F, Alt-Right, Ctrl-Right.
    case wordRight
    /// Delete, and Ctrl-D on a field with text.
    case deleteForward
    /// Alt-Backspace: the word before the cursor (letters and digits), kept for Ctrl-Y.
    case deleteWordBackward
    /// Ctrl-W: back to the previous blank, kept for Ctrl-Y.
    case deleteToBlankBackward
    /// Alt-D: the word after the cursor, kept for Ctrl-Y.
    case deleteWordForward
    /// Ctrl-U: everything before the cursor, kept for Ctrl-Y.
    case deleteToStart
    /// Ctrl-K: everything after the cursor, kept for Ctrl-Y.
    case deleteToEnd
    /// Ctrl-Y: puts back what was last deleted by a word or line command.
    case yank
}

/// One line of text with a cursor, edited as readline, zsh and Bubble Tea's text input
/// do. Positions count characters (grapheme clusters): an emoji or an accented letter
/// is one step of the cursor and one Backspace.
public struct LineEditor: Equatable, Sendable {
    public private(set) var characters: [Character]
    /// 0 is before the first character, `characters.count` after the last.
    public private(set) var cursor: Int

    /// `cursor` nil means at the end, where typing lands by default.
    public init(_ text: String, cursor: Int? = nil) {
        characters = Array(text)
        self.cursor = min(max(0, cursor ?? characters.count), characters.count)
    }

    public var text: String { String(characters) }
    public var atEnd: Bool { cursor == characters.count }

    public mutating func insert(_ text: String) {
        let inserted = Array(text)
        characters.insert(contentsOf: inserted, at: cursor)
        cursor += inserted.count
    }

    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    public mutating func moveToStart() { cursor = 0 }
    public mutating func moveToEnd() { cursor = characters.count }

    /// Applies an edit; returns the text a kill removed (for Ctrl-Y), else nil.
    /// `yanking` is the text Ctrl-Y puts back.
    @discardableResult
    public mutating func apply(_ edit: TextEdit, yanking: String = "") -> String? {
        switch edit {
        case .wordLeft:
            cursor = wordStart(before: cursor)
        case .wordRight:
            cursor = wordEnd(after: cursor)
        case .deleteForward:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .deleteWordBackward:
            return kill(from: wordStart(before: cursor), to: cursor)
        case .deleteToBlankBackward:
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            return kill(from: start, to: cursor)
        case .deleteWordForward:
            return kill(from: cursor, to: wordEnd(after: cursor))
        case .deleteToStart:
            return kill(from: 0, to: cursor)
        case .deleteToEnd:
            return kill(from: cursor, to: characters.count)
        case .yank:
            insert(yanking)
        }
        return nil
    }

    private func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// Readline's backward-word: over any separators, then over the word.
    private func wordStart(before position: Int) -> Int {
        var index = position
        while index > 0, !isWordCharacter(characters[index - 1]) { index -= 1 }
        while index > 0, isWordCharacter(characters[index - 1]) { index -= 1 }
        return index
    }

    /// Readline's forward-word: over any separators, then to the end of the word.
    private func wordEnd(after position: Int) -> Int {
        var index = position
        while index < characters.count, !isWordCharacter(characters[index]) { index += 1 }
        while index < characters.count, isWordCharacter(characters[index]) { index += 1 }
        return index
    }

    private mutating func kill(from start: Int, to end: Int) -> String? {
        guard start < end else { return nil }
        let killed = String(characters[start..<end])
        characters.removeSubrange(start..<end)
        cursor = start
        return killed
    }
}
