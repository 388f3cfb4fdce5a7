import FlowEngine

/// A checklist line: its mark (a spinner while running), its label and what it found.
extension Renderer {
    /// `✓ Content preload — 12 entries cached`; the running task spins.
    func checklistLines(_ line: ScreenView.ChecklistLine, width: Int, tick: Int) -> [Line] {
        let (mark, role, note): (String, Role, String?) =
            switch line.status {
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
