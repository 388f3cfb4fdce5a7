import FlowEngine

/// A multi field: pills picked with Space, wrapped to the width.
extension Renderer {
    /// `[x] Women  [ ] Men …`, wrapped; the highlighted pill shows while focused.
    func pillLines(_ field: ScreenView.FieldView, width: Int) -> [Line] {
        var lines: [Line] = []
        var spans: [(String, Role)] = []
        var used = 0
        var holdsCursor = false
        func finish() {
            var line = Line(spans: spans)
            line.hasFocus = field.focused && holdsCursor
            lines.append(line)
            spans = []
            used = 0
            holdsCursor = false
        }
        for (index, option) in field.options.enumerated() {
            let mark = field.picked.contains(option) ? "[x] " : "[ ] "
            let text = TextMetrics.truncate(mark + option, to: width, ellipsis: glyphs.ellipsis)
            let size = TextMetrics.width(of: text)
            if !spans.isEmpty, used + 2 + size > width { finish() }
            if !spans.isEmpty {
                spans.append(("  ", .text))
                used += 2
            }
            let isCursor = field.focused && index == field.cursor
            let role: Role = isCursor ? .optionFocused : (field.picked.contains(option) ? .accent : .option)
            spans.append((text, role))
            used += size
            holdsCursor = holdsCursor || isCursor
        }
        if !spans.isEmpty { finish() }
        return lines
    }
}
