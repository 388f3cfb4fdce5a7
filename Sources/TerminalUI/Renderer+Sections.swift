import FlowEngine

/// The sections of a screen, top to bottom: each returns its lines, ending with a
/// spacer when it shows anything.
extension Renderer {
    /// Warnings (✗) and reassuring notes (ℹ), each with its lines under its first word.
    func warningLines(_ view: ScreenView, width: Int) -> [Line] {
        view.warnings.flatMap { warning in
            wrapped("\(glyphs.errorMark) \(warning)", role: .error, width: width, kind: .body, hanging: 2) + [.spacer]
        }
            + view.notes.flatMap { note in
                wrapped("\(glyphs.noticeMark) \(note)", role: .notice, width: width, kind: .body, hanging: 2) + [.spacer]
            }
    }

    /// A progress screen (or the launch) while its call is under way: the spinner alone.
    func waitingScreen(_ view: ScreenView, tick: Int) -> [Line]? {
        guard let label = view.busyLabel, view.kind == .progress || view.kind == nil else { return nil }
        let frameIndex = tick % glyphs.spinner.count
        return [
            .spacer, Line(spans: [(glyphs.spinner[frameIndex], .spinner), (label.isEmpty ? "" : "  " + label, .text)], alignment: .center),
            .spacer, .spacer,
        ]
    }

    func logoLines(_ view: ScreenView) -> [Line] {
        view.logo.isEmpty ? [] : view.logo.map { .text($0, .logo, .center) } + [.spacer]
    }

    func titleLines(_ view: ScreenView, width: Int) -> [Line] {
        view.title.isEmpty ? [] : TextMetrics.wrap(view.title, to: width).map { .text($0, .title, .center) } + [.spacer]
    }

    func bodyLines(_ view: ScreenView, width: Int) -> [Line] {
        guard !view.body.isEmpty else { return [] }
        let lines =
            view.kind == .error
            ? wrapped("\(glyphs.errorMark) \(view.body)", role: .error, width: width, kind: .body, hanging: 2)
            : wrapped(view.body, role: .text, width: width, kind: .body)
        return lines + [.spacer]
    }

    func checklistSection(_ view: ScreenView, width: Int, tick: Int) -> [Line] {
        view.checklist.isEmpty ? [] : view.checklist.flatMap { checklistLines($0, width: width, tick: tick) } + [.spacer]
    }

    func bulletLines(_ view: ScreenView, width: Int) -> [Line] {
        guard !view.bullets.isEmpty else { return [] }
        return view.bullets.flatMap { bullet in
            // Numbered steps ("1. …") carry their own marker.
            let numbered = bullet.prefix(while: \.isNumber).count > 0 && bullet.drop(while: \.isNumber).hasPrefix(". ")
            let marker = numbered ? "" : glyphs.bullet + " "
            let hanging = numbered ? bullet.prefix(while: { $0 != " " }).count + 1 : 2
            return wrapped(marker + bullet, role: .text, width: width, kind: .body, hanging: hanging)
        } + [.spacer]
    }

    /// A list the flow keeps (RuckTracker's rucks), or what it says when there is none.
    func itemLines(_ view: ScreenView, width: Int) -> [Line] {
        guard !view.items.isEmpty || !view.emptyItems.isEmpty else { return [] }
        var lines = view.items.flatMap { wrapped("\(glyphs.bullet) \($0)", role: .text, width: width, kind: .body, hanging: 2) }
        if !view.emptyItems.isEmpty { lines += wrapped(view.emptyItems, role: .muted, width: width, kind: .body) }
        return lines + [.spacer]
    }

    /// Each field: its label, its widget (`Widgets/`), its error.
    func fieldLines(_ view: ScreenView, width: Int) -> [Line] {
        view.fields.flatMap { field in
            var lines: [Line] = [.text(field.label, field.focused ? .accent : .text)] + valueLines(field, width: width)
            if let error = field.error {
                lines += wrapped("\(glyphs.errorMark) \(error)", role: .error, width: width, kind: .fixed, hanging: 2)
            }
            return lines + [.spacer]
        }
    }

    func optionLines(_ view: ScreenView, width: Int) -> [Line] {
        guard !view.options.isEmpty else { return [] }
        return view.options.map { option in
            let marker = option.focused ? glyphs.pointer + " " : "  "
            let text = TextMetrics.truncate(option.label, to: width - 2, ellipsis: glyphs.ellipsis)
            var line = Line(spans: [(marker, .accent), (text, option.focused ? .optionFocused : .option)])
            line.hasFocus = option.focused
            return line
        } + [.spacer]
    }

    func messageLines(_ view: ScreenView, width: Int) -> [Line] {
        switch view.message {
        case .error(let text)?: wrapped("\(glyphs.errorMark) \(text)", role: .error, width: width, kind: .fixed, hanging: 2) + [.spacer]
        case .notice(let text)?: wrapped("\(glyphs.noticeMark) \(text)", role: .notice, width: width, kind: .fixed, hanging: 2) + [.spacer]
        case nil: []
        }
    }

    /// The buttons, or what the user waits for instead of them.
    func footerLines(_ view: ScreenView, width: Int, tick: Int) -> [Line] {
        if let label = view.busyLabel {
            let spinner = glyphs.spinner[tick % glyphs.spinner.count]
            return [Line(spans: [(spinner, .spinner), ("  " + label, .muted)], alignment: .center), .spacer]
        }
        return view.buttons.isEmpty ? [] : buttonRows(view.buttons, width: width) + [.spacer]
    }
}
