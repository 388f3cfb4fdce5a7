import TerminalUI

/// How far a screen's text is scrolled with PgUp/PgDn — a flow's screen or a QA console
/// page — and what the last frame drawn allowed. Another screen starts at the top.
struct TextScroll {
    /// The screen (or console page) the scroll belongs to.
    var owner: String?
    var lines = 0
    /// As far as it can go: the body lines the last frame could not show.
    var most = 0
    /// A page keeps one line of the last for context, as pagers do.
    var page = 1
    /// The last frame showed the text in place of its form (no row was left for it).
    var reading = false

    init(owner: String? = nil) {
        self.owner = owner
    }

    /// Starts at the top when the screen is another one.
    mutating func follow(_ owner: String?) {
        if owner != self.owner { self = TextScroll(owner: owner) }
    }

    /// PgUp or PgDn: whether it scrolled (there was text out of view).
    mutating func press(_ key: Key) -> Bool {
        guard key == .pageUp || key == .pageDown, most > 0 else { return false }
        lines = min(most, max(0, lines + (key == .pageDown ? page : -page)))
        return true
    }

    /// What the frame just drawn allows.
    mutating func fit(_ frame: Frame) {
        most = frame.bodyHidden
        page = max(1, frame.bodyShown - 1)
        lines = min(lines, most)
        reading = frame.readingBody
    }
}
