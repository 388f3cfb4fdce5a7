import FlowEngine

/// A code field: one box per digit.
extension Renderer {
    /// `[1] [2] [3] [ ] [ ] [ ]`, the cursor in the box it edits (the next empty one).
    func codeLine(_ field: ScreenView.FieldView, width: Int) -> Line {
        let characters = Array(field.value)
        let count = max(field.length, characters.count)
        let role: Role = field.focused ? .inputFocused : .input
        var spans: [(String, Role)] = []
        for index in 0..<count {
            if index > 0 { spans.append((" ", .text)) }
            spans.append(("[" + (index < characters.count ? String(characters[index]) : " ") + "]", role))
        }
        var line = Line(spans: spans, alignment: .left)
        if field.focused {
            line.cursorColumn = min(field.caret ?? characters.count, count - 1) * 4 + 1
            line.hasFocus = true
        }
        return line
    }
}
