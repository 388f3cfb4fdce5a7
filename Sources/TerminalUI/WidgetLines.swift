import FlowEngine

/// How each kind of field draws its value: a text box, a picker, pills, a slider, a
/// two-handle range, or a row of code boxes.
extension Renderer {
    func valueLines(_ field: ScreenView.FieldView, width: Int) -> [Line] {
        switch field.kind {
        case .select: [selectLine(field, width: width)]
        case .multi: pillLines(field, width: width)
        case .slider, .range: [sliderLine(field, width: width)]
        case .code: [codeLine(field, width: width)]
        default: [withHint(inputLine(field, width: width), field.hint, width: width)]
        }
    }

    /// `◀ Woman ▶` in the input box.
    func selectLine(_ field: ScreenView.FieldView, width: Int) -> Line {
        let role: Role = field.focused ? .inputFocused : .input
        let (left, right) = glyphs.ascii ? ("<", ">") : ("◀", "▶")
        let shown = field.value.isEmpty ? (field.placeholder.isEmpty ? "choose" : field.placeholder) : field.value
        var line = Line(spans: [(left + " ", role), (TextMetrics.truncate(shown, to: width - 5, ellipsis: glyphs.ellipsis), field.value.isEmpty ? .muted : role), (" " + right, role)])
        line.fillRole = role
        line.hasFocus = field.focused
        return line
    }

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

    /// `18 ──●━━━━━━●── 99   25 to 40`: the filled part between the handles (or up to
    /// the one handle), the active handle highlighted while focused.
    func sliderLine(_ field: ScreenView.FieldView, width: Int) -> Line {
        let values: [Int] = field.kind == .range
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
                let active = field.focused && (field.kind == .slider || which == field.cursor || positions.count == 2 && positions[0] == positions[1])
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

extension Renderer {
    /// `✓ Content preload — 12 entries cached`; the running task spins.
    func checklistLines(_ line: ScreenView.ChecklistLine, width: Int, tick: Int) -> [Line] {
        let (mark, role, note): (String, Role, String?) = switch line.status {
        case .waiting: (glyphs.ascii ? "-" : "·", .muted, nil)
        case .running(let note): (glyphs.spinner[tick % glyphs.spinner.count], .spinner, note)
        case .done(let note): (glyphs.ascii ? "+" : "✓", .accent, note)
        case .fellBack(let note): ("!", .notice, note)
        case .failed(let note): (glyphs.errorMark, .error, note)
        }
        var first = Line(spans: [(mark + " ", role), (line.label, line.status == .waiting ? .muted : .text)])
        first.kind = .fixed
        guard let note else { return [first] }
        let dash = glyphs.ascii ? " - " : " — "
        let room = width - 2 - TextMetrics.width(of: line.label) - dash.count
        if TextMetrics.width(of: note) <= room {
            first.spans.append((dash + note, .muted))
            return [first]
        }
        return [first] + TextMetrics.wrap(note, to: width - 4).map { .text("    " + $0, .muted) }
    }
}
