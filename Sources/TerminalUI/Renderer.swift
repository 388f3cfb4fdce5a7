import FlowEngine
import ScreenTable

/// Draws a `ScreenView` into a `Frame`: a centred card that reads well at 80x24 and
/// still works at 40x12, with the help line on the bottom row.
public struct Renderer: Sendable {
    /// Below this the screen shows only "Terminal too small".
    public static let minimumWidth = 30
    public static let minimumHeight = 10
    public static let maximumCardWidth = 64
    /// A screen with a QR code is wider: the code stands beside the text, and an address
    /// beside it should not break (80 columns: 41 for the text).
    public static let maximumCardWidthWithQRCode = 78

    public var glyphs: Glyphs

    public init(glyphs: Glyphs = .unicode) {
        self.glyphs = glyphs
    }

    /// `tick` advances the spinner (one step per 100 ms of time is usual); `scroll` is how
    /// many body lines a body too long for the screen has scrolled by.
    public func render(_ view: ScreenView, width: Int, height: Int, tick: Int = 0, scroll: Int = 0) -> Frame {
        // Received text is made inert before anything is measured.
        var view = view.terminalSafe
        if glyphs.ascii { view = view.asciiFolded }
        var frame = Frame(width: width, height: height)
        frame.busy = view.busy
        guard width >= Self.minimumWidth, height >= Self.minimumHeight else {
            drawTooSmall(&frame)
            return frame
        }
        var cardWidth = min(width - 2, view.qr != nil && !glyphs.ascii ? Self.maximumCardWidthWithQRCode : Self.maximumCardWidth)
        var inner = cardWidth - 6
        var lines = layout(view, width: inner, tick: tick)
        let available = height - 1 - 2  // help line, card borders
        if view.qr != nil, glyphs.ascii || lines.count > available {
            // A QR code cut off or scrolled is no use to a camera: the text says it all.
            view.qr = nil
            cardWidth = min(width - 2, Self.maximumCardWidth)
            inner = cardWidth - 6
            lines = layout(view, width: inner, tick: tick)
        }
        frame.bodyHidden = fit(&lines, into: available, scroll: scroll)
        frame.bodyShown = lines.count { $0.kind == .body }
        let focusable =
            view.fields.contains(where: \.focused) || view.buttons.contains(where: \.focused) || view.options.contains(where: \.focused)
        frame.readingBody = focusable && !lines.contains(where: \.hasFocus)
        view.moreBelow = min(scroll, frame.bodyHidden) < frame.bodyHidden
        view.moreAbove = min(scroll, frame.bodyHidden) > 0
        let cardHeight = lines.count + 2
        let left = (width - cardWidth) / 2
        let top = max(0, (height - 1 - cardHeight) / 2)
        drawBorder(&frame, x: left, y: top, width: cardWidth, height: cardHeight)
        for (index, line) in lines.enumerated() {
            draw(line, &frame, x: left + 3, y: top + 1 + index, width: inner)
        }
        if let cursor = lines.firstIndex(where: { $0.cursorColumn != nil }) {
            let line = lines[cursor]
            frame.cursor = Frame.Position(x: left + 3 + (line.cursorColumn ?? 0), y: top + 1 + cursor)
        }
        let help = TextMetrics.truncate(
            KeyMap.helpLine(for: view, ascii: glyphs.ascii, width: width - 2), to: width - 2, ellipsis: glyphs.ellipsis)
        frame.put(help, x: 1, y: height - 1, role: .help)
        return frame
    }

    // MARK: Layout

    /// One row of the card's content.
    struct Line {
        enum Alignment { case left, center }
        enum Kind { case spacer, body, fixed }

        var spans: [(text: String, role: Role)]
        var alignment: Alignment = .left
        var kind: Kind = .fixed
        /// Paint the whole row in this role first (input boxes).
        var fillRole: Role?
        var cursorColumn: Int?
        /// Holds the focused field, option or button: kept on screen when scrolling.
        var hasFocus = false

        static let spacer = Line(spans: [], kind: .spacer)

        static func text(_ text: String, _ role: Role, _ alignment: Alignment = .left, kind: Kind = .fixed) -> Line {
            Line(spans: [(text, role)], alignment: alignment, kind: kind)
        }
    }

    /// The screen top to bottom, one section after another (`Renderer+Sections.swift`);
    /// each section ends with its own spacer when it shows anything.
    func layout(_ view: ScreenView, width: Int, tick: Int) -> [Line] {
        var lines: [Line] = [view.stepLabel.map { .text($0, .muted, .center) } ?? .spacer] + warningLines(view, width: width)
        if let waiting = waitingScreen(view, tick: tick) { return lines + waiting }
        let sections = [
            logoLines(view), titleLines(view, width: width), bodyAndQRLines(view, width: width),
            checklistSection(view, width: width, tick: tick),
            bulletLines(view, width: width), itemLines(view, width: width), fieldLines(view, width: width), optionLines(view, width: width),
            messageLines(view, width: width), footerLines(view, width: width, tick: tick),
        ]
        for section in sections { lines += section }
        return lines
    }

    func wrapped(_ text: String, role: Role, width: Int, kind: Line.Kind, hanging: Int = 0) -> [Line] {
        // Continuation lines indent under the text, not the bullet.
        let lines = TextMetrics.wrap(text, to: width, rest: width - hanging, breakMark: glyphs.breakMark)
        let indent = String(repeating: " ", count: hanging)
        return lines.enumerated().map { .text($0.offset == 0 ? $0.element : indent + $0.element, role, kind: kind) }
    }

    /// Buttons side by side, wrapped onto more rows when they do not fit the width.
    func buttonRows(_ buttons: [ScreenView.ItemView], width: Int) -> [Line] {
        var rows: [Line] = []
        var spans: [(String, Role)] = []
        var used = 0
        var focusedRow = false
        func finishRow() {
            var row = Line(spans: spans, alignment: .center)
            row.hasFocus = focusedRow
            rows.append(row)
            spans = []
            used = 0
            focusedRow = false
        }
        for button in buttons where button.linkPrompt == nil {
            let text = button.shortcut.map { "\(button.label) (\($0))" } ?? button.label
            let label = TextMetrics.truncate(button.focused ? "> \(text) <" : "[ \(text) ]", to: width, ellipsis: glyphs.ellipsis)
            let labelWidth = TextMetrics.width(of: label)
            if !spans.isEmpty, used + 2 + labelWidth > width { finishRow() }
            if !spans.isEmpty {
                spans.append(("  ", .text))
                used += 2
            }
            spans.append((label, button.focused ? .buttonFocused : (button.waiting ? .muted : .button)))
            used += labelWidth
            focusedRow = focusedRow || button.focused
        }
        if !spans.isEmpty { finishRow() }
        // Links follow, each on its own line: the prompt, then the link's label.
        for link in buttons {
            guard let prompt = link.linkPrompt else { continue }
            let label = link.focused ? "> \(link.label) <" : link.label
            var row = Line(spans: [(prompt + " ", .muted), (label, link.focused ? .buttonFocused : .link)], alignment: .center)
            row.hasFocus = link.focused
            rows.append(row)
        }
        return rows
    }

    // MARK: Drawing

    func draw(_ line: Line, _ frame: inout Frame, x: Int, y: Int, width: Int) {
        if let fill = line.fillRole { frame.fill(x: x, y: y, count: width, role: fill) }
        let total = line.spans.reduce(0) { $0 + TextMetrics.width(of: $1.text) }
        var column = line.alignment == .center ? x + max(0, (width - total) / 2) : x
        for span in line.spans {
            column = frame.put(span.text, x: column, y: y, role: span.role, limit: x + width)
        }
    }

    func drawBorder(_ frame: inout Frame, x: Int, y: Int, width: Int, height: Int) {
        let horizontal = String(repeating: glyphs.horizontal, count: width - 2)
        frame.put(glyphs.topLeft + horizontal + glyphs.topRight, x: x, y: y, role: .border)
        for row in (y + 1)..<(y + height - 1) {
            frame.put(glyphs.vertical, x: x, y: row, role: .border)
            frame.put(glyphs.vertical, x: x + width - 1, y: row, role: .border)
        }
        frame.put(glyphs.bottomLeft + horizontal + glyphs.bottomRight, x: x, y: y + height - 1, role: .border)
    }

    func drawTooSmall(_ frame: inout Frame) {
        let message = [
            ("Terminal too small", Role.error),
            ("Need \(Self.minimumWidth)x\(Self.minimumHeight), have \(frame.width)x\(frame.height)", Role.text),
            ("Enlarge the window or press Ctrl-C", Role.muted),
        ]
        let lines = message.flatMap { text, role in TextMetrics.wrap(text, to: frame.width).map { ($0, role) } }
        let top = max(0, (frame.height - lines.count) / 2)
        for (index, (text, role)) in lines.enumerated() where top + index < frame.height {
            frame.put(text, x: max(0, (frame.width - TextMetrics.width(of: text)) / 2), y: top + index, role: role)
        }
    }
}
