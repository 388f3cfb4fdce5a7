import FlowEngine

/// A slider or a range: a track with one handle or two, and the numbers.
extension Renderer {
    /// `18 ──●━━━━━━●── 99   25 to 40`: the filled part between the handles (or up to
    /// the one handle), the active handle highlighted while focused.
    func sliderLine(_ field: ScreenView.FieldView, width: Int) -> Line {
        let values: [Int] =
            field.kind == .range
            ? (NumberRange(field.value).map { [$0.low, $0.high] } ?? [field.minimum, field.maximum])
            : [Int(field.value) ?? field.minimum]
        let readout = field.kind == .range ? "\(values[0]) to \(values[1])" : "\(values[0])"
        let lowLabel = String(field.minimum), highLabel = String(field.maximum)
        let barWidth = max(5, width - lowLabel.count - highLabel.count - readout.count - 6)
        let span = max(1, field.maximum - field.minimum)
        let positions = values.map { value in
            (min(field.maximum, max(field.minimum, value)) - field.minimum) * (barWidth - 1) / span
        }
        let (track, filled, handle) = glyphs.ascii ? ("-", "=", "O") : ("─", "━", "●")
        let from = field.kind == .range ? (positions.min() ?? 0) : 0
        let to = positions.max() ?? 0
        var spans: [(String, Role)] = [(lowLabel + " ", .muted)]
        for column in 0..<barWidth {
            if let which = positions.firstIndex(of: column) {
                let active =
                    field.focused
                    && (field.kind == .slider || which == field.cursor || positions.count == 2 && positions[0] == positions[1])
                spans.append((handle, active ? .optionFocused : .accent))
            } else {
                spans.append(((from...to).contains(column) ? filled : track, (from...to).contains(column) ? .accent : .muted))
            }
        }
        spans.append((" " + highLabel + "   ", .muted))
        spans.append((readout, field.focused ? .accent : .text))
        var line = Line(spans: spans)
        line.hasFocus = field.focused
        return line
    }
}
