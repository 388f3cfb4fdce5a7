import FlowEngine

/// A text field: the box, its cursor kept in view as the text scrolls, a hint beside it.
extension Renderer {
    func inputLine(_ field: ScreenView.FieldView, width: Int) -> Line {
        let shown = Array(field.secret ? String(repeating: "•", count: field.value.count) : field.value)
        let room = width - 1
        let caret = min(field.caret ?? shown.count, shown.count)
        // Widths measured once per character: a 2048-character URL is redrawn on every key.
        let widths = shown.map { TextMetrics.width(of: $0) }
        let start = Self.scrollStart(widths: widths, caret: caret, room: room)
        var end = start
        var used = 0
        while end < shown.count, used + widths[end] <= room {
            used += widths[end]
            end += 1
        }
        let visible = String(shown[start..<end])
        let role: Role = field.focused ? .inputFocused : .input
        if visible.isEmpty, !field.focused, !field.placeholder.isEmpty {
            var line = Line.text(TextMetrics.truncate(field.placeholder, to: room, ellipsis: glyphs.ellipsis), .muted)
            line.fillRole = role
            return line
        }
        var line = Line.text(visible, role)
        line.fillRole = role
        if field.focused {
            line.cursorColumn = widths[start..<caret].reduce(0, +)
            line.hasFocus = true
        }
        return line
    }
    /// Where a text too long for its box starts showing. The end shows while the cursor is
    /// near it; elsewhere the text moves a third of the box at a time, so the cursor keeps
    /// a third of the box of text on each side, as readline's horizontal scrolling does
    /// (issue 32: it slid under a cursor pinned to the left edge, hiding what came before).
    static func scrollStart(widths: [Int], caret: Int, room: Int) -> Int {
        var columns = [0]
        for width in widths { columns.append(columns[columns.count - 1] + width) }
        let total = columns[columns.count - 1]
        guard total > room else { return 0 }
        let tailStart = columns.firstIndex { total - $0 <= room } ?? widths.count
        let third = max(1, room / 3)
        let paged = max(0, (columns[caret] / third - 1) * third)
        var start = min(columns.firstIndex { $0 >= paged } ?? caret, tailStart, caret)
        // Wide characters: the cursor itself always in the box.
        while columns[caret] - columns[start] > room { start += 1 }
        return start
    }
    func withHint(_ line: Line, _ hint: String?, width: Int) -> Line {
        guard let hint else { return line }
        var line = line
        line.fillRole = nil
        let value = line.spans.map(\.text).joined()
        let boxWidth = max(1, width - TextMetrics.width(of: hint) - 2)
        let padded = value + String(repeating: " ", count: max(0, boxWidth - TextMetrics.width(of: value)))
        line.spans = [(padded, line.spans.first?.role ?? .input), ("  " + hint, .muted)]
        return line
    }
}
