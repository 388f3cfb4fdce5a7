/// What a screen looks like: a grid of cells, each a grapheme and a style role. The
/// renderer makes it; the backend draws it; tests read it back as lines of text.
public struct Frame: Equatable, Sendable {
    public struct Cell: Equatable, Sendable {
        /// One grapheme, or "" for the second column of a wide one.
        public var text: String
        public var role: Role
    }

    public struct Position: Equatable, Sendable {
        public var x: Int
        public var y: Int
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the terminal cursor goes (a focused text field), or nil to hide it.
    public var cursor: Position?
    /// Body lines that did not fit: how far the body can scroll (PgUp/PgDn).
    public var bodyHidden = 0
    /// Body lines on screen: one PgUp/PgDn page.
    public var bodyShown = 0
    /// The card shows its body instead of its form (no row was left for it): PgDn pressed
    /// on a small terminal. Any other key goes back to the form.
    public var readingBody = false
    /// The user waits (a spinner): a key script holds its keys meanwhile.
    public var busy = false

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(text: " ", role: .background), count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// Writes text from column `x` on row `y`, stopping before `limit` (default: the
    /// right edge). Returns the column after the last one written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, role: Role, limit: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let end = min(limit ?? width, width)
        var column = x
        // Whatever reaches a cell is drawn, never executed (the curses screen, `--cast`).
        for character in TerminalText.safe(text, keepingNewlines: false) {
            let columns = TextMetrics.width(of: character)
            if columns == 0 {
                if column > 0, column <= end, column - 1 >= 0 { cells[y * width + column - 1].text.append(character) }
                continue
            }
            if column < 0 { column += columns; continue }
            if column + columns > end { break }
            clearWide(at: column, y: y)
            cells[y * width + column] = Cell(text: String(character), role: role)
            for extra in 1..<columns {
                cells[y * width + column + extra] = Cell(text: "", role: role)
            }
            column += columns
        }
        return column
    }

    /// Paints `count` blank cells with a role (backgrounds, input boxes).
    public mutating func fill(x: Int, y: Int, count: Int, role: Role) {
        guard y >= 0, y < height else { return }
        for column in max(0, x)..<min(width, x + count) {
            clearWide(at: column, y: y)
            cells[y * width + column] = Cell(text: " ", role: role)
        }
    }

    /// Overwriting half of a wide character blanks its other half.
    private mutating func clearWide(at column: Int, y: Int) {
        let index = y * width + column
        if cells[index].text.isEmpty, column > 0 {
            cells[index - 1] = Cell(text: " ", role: cells[index - 1].role)
        }
        if column + 1 < width, cells[index + 1].text.isEmpty, TextMetrics.width(of: cells[index].text) > 1 {
            cells[index + 1] = Cell(text: " ", role: cells[index + 1].role)
        }
    }

    /// The frame as text, one string per row, trailing blanks trimmed: what a person
    /// would read off the screen.
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width { line += cells[y * width + x].text }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    public var text: String { lines.joined(separator: "\n") }
}
