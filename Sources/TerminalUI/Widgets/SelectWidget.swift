import FlowEngine

/// A select field: one choice of several, changed with the arrows.
extension Renderer {
    /// `◀ Woman ▶` in the input box.
    func selectLine(_ field: ScreenView.FieldView, width: Int) -> Line {
        let role: Role = field.focused ? .inputFocused : .input
        let (left, right) = glyphs.ascii ? ("<", ">") : ("◀", "▶")
        let shown = field.value.isEmpty ? (field.placeholder.isEmpty ? "choose" : field.placeholder) : field.value
        var line = Line(spans: [
            (left + " ", role),
            (TextMetrics.truncate(shown, to: width - 5, ellipsis: glyphs.ellipsis), field.value.isEmpty ? .muted : role),
            (" " + right, role),
        ])
        line.fillRole = role
        line.hasFocus = field.focused
        return line
    }
}
