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
            let shown = max(0, room)
            let start = min(max(0, scroll), bodyIndices.count - shown)
            hidden = bodyIndices.count - shown
            let window = Array(bodyIndices[start..<(start + shown)])
            var replaced = lines
            for (slot, row) in window.enumerated() { replaced[bodyIndices[slot]] = lines[row] }
            let dropped = Set(bodyIndices.dropFirst(shown))
            lines = replaced.indices.filter { !dropped.contains($0) }.map { replaced[$0] }
        }
        guard lines.count > height else { return hidden }
        // Still too tall (a long form on a small terminal): scroll so the focused line
        // shows, and mark the cut ends; Tab moves focus, and the view follows.
        let focus = lines.firstIndex(where: \.hasFocus) ?? 0
        let start = max(0, min(focus - height / 2, lines.count - height))
        var window = Array(lines[start..<(start + height)])
        if start > 0, !window[0].hasFocus { window[0] = .text("↑ " + glyphs.ellipsis, .muted, kind: .fixed) }
        if start + height < lines.count, !window[height - 1].hasFocus {
            window[height - 1] = .text("↓ " + glyphs.ellipsis, .muted, kind: .fixed)
        }
        lines = window
        return hidden
    }
}
