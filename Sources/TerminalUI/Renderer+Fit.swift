/// Fitting a card to the terminal's height: what gives way first, and the body's window.
extension Renderer {
    /// Makes the lines fit the height: blank spacers go first; then the body shows as a
    /// window scrolled by `scroll` lines, marked `↑ …` / `↓ …` where text is out of view,
    /// so fields and buttons always stay on screen and every line can be read with
    /// PgUp/PgDn. Returns how many body lines are out of view (the most it can scroll).
    @discardableResult
    func fit(_ lines: inout [Line], into height: Int, scroll: Int = 0) -> Int {
        while lines.count > height, let spacer = lines.lastIndex(where: { $0.kind == .spacer }) {
            lines.remove(at: spacer)
        }
        guard lines.count > height else { return 0 }
        let bodyIndices = lines.indices.filter { lines[$0].kind == .body }
        var hidden = 0
        let room = bodyIndices.count - (lines.count - height)
        if room >= 3 {
            // Room for the body with one marker, or two when scrolled into the middle.
            var shown = room - 1
            var start = min(max(0, scroll), bodyIndices.count - shown)
            if start > 0, start + shown < bodyIndices.count {
                shown = room - 2
                start = min(start, bodyIndices.count - shown)
            }
            hidden = bodyIndices.count - shown
            let above = bodyIndices.prefix(start), below = bodyIndices.dropFirst(start + shown)
            var replaced = lines
            if let first = below.first { replaced[first] = .text("↓ " + glyphs.ellipsis, .muted, kind: .fixed) }
            if let first = above.first { replaced[first] = .text("↑ " + glyphs.ellipsis, .muted, kind: .fixed) }
            let dropped = Set(above.dropFirst()).union(below.dropFirst())
            lines = replaced.indices.filter { !dropped.contains($0) }.map { replaced[$0] }
        } else if !bodyIndices.isEmpty {
            // A form filling a small card: its fields and buttons stay put and the one or
            // two rows left are a window on the body without markers, which PgUp/PgDn move;
            // the help line says which way there is more.
            if room <= 0, scroll > 0 {
                // No row left at all: PgDn reads the body in the card instead of the form,
                // PgUp back to the top returns to it (issue 32: Add Email at 40x12 offered
                // PgDn and moved nothing).
                return reading(&lines, into: height, scroll: scroll, bodyIndices: bodyIndices)
            }
            let shown = max(0, room)
            let start = min(max(0, scroll), bodyIndices.count - shown)
            hidden = bodyIndices.count - shown
            let window = Array(bodyIndices[start..<(start + shown)])
            var replaced = lines
            for (slot, row) in window.enumerated() { replaced[bodyIndices[slot]] = lines[row] }
            // Text goes on below: the last row shown says so where it is cut, never reading
            // as the sentence's end.
            if shown > 0, start + shown < bodyIndices.count {
                replaced[bodyIndices[shown - 1]] = continued(replaced[bodyIndices[shown - 1]])
            }
            let dropped = Set(bodyIndices.dropFirst(shown))
            lines = replaced.indices.filter { !dropped.contains($0) }.map { replaced[$0] }
        }
        guard lines.count > height else { return hidden }
        // Still too tall (a long form on a small terminal): scroll so the focused line
        // shows, and mark the cut ends; Tab moves focus, and the view follows.
        let focus = lines.firstIndex(where: \.hasFocus) ?? 0
        var start = max(0, min(focus - height / 2, lines.count - height))
        // A message the focused field just got stays in view with it (issue 32: MIGA's
        // "Pick at least one topic." at 40x12 was below the window).
        // One row more where lines follow it, so the "↓ …" mark does not cover it.
        if let message = lines[focus...].prefix(height - 1).firstIndex(where: { $0.spans.first?.role == .error }) {
            let lastRow = message + (message + 1 < lines.count ? 1 : 0)
            if lastRow >= start + height { start = min(focus, lastRow - height + 1) }
        }
        var window = Array(lines[start..<(start + height)])
        if start > 0, !window[0].hasFocus { window[0] = .text("↑ " + glyphs.ellipsis, .muted, kind: .fixed) }
        if start + height < lines.count, !window[height - 1].hasFocus {
            window[height - 1] = .text("↓ " + glyphs.ellipsis, .muted, kind: .fixed)
        }
        lines = window
        return hidden
    }

    /// A line cut where more follows: its last word gives way to `…` (the line keeps its
    /// width, so the mark always fits).
    private func continued(_ line: Line) -> Line {
        guard var last = line.spans.last else { return line }
        var words = last.text.split(separator: " ", omittingEmptySubsequences: false)
        if words.count > 1 {
            words.removeLast()
            last.text = words.joined(separator: " ") + " " + glyphs.ellipsis
        } else {
            last.text = String(last.text.dropLast(glyphs.ellipsis.count)) + glyphs.ellipsis
        }
        var marked = line
        marked.spans[marked.spans.count - 1] = last
        return marked
    }

    /// The card's header (step, title) and a window on its body from line `scroll - 1`,
    /// marked where there is more; how far it can scroll in all.
    private func reading(_ lines: inout [Line], into height: Int, scroll: Int, bodyIndices: [Int]) -> Int {
        let header = Array(lines.prefix(while: { $0.kind != .body }).prefix(max(0, height - 2)))
        let rows = max(1, height - header.count)
        let body = bodyIndices.map { lines[$0] }
        let most = 1 + max(0, body.count - rows)
        let start = min(scroll, most) - 1
        var window = Array(body[start..<min(body.count, start + rows)])
        if start > 0 { window[0] = .text("↑ " + glyphs.ellipsis, .muted, kind: .fixed) }
        if start + rows < body.count { window[rows - 1] = .text("↓ " + glyphs.ellipsis, .muted, kind: .fixed) }
        lines = header + window
        return most
    }
}
