/// Characters for borders, bullets and the spinner: Unicode, or ASCII when the
/// terminal's locale is not UTF-8.
public struct Glyphs: Equatable, Sendable {
    public var topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical: String
    public var bullet, pointer, errorMark, noticeMark, ellipsis: String
    /// Ends a piece of a word broken across lines, as Emacs marks a continued line.
    public var breakMark: String
    public var spinner: [String]
    public var ascii: Bool

    public static let unicode = Glyphs(
        topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯", horizontal: "─", vertical: "│",
        bullet: "•", pointer: "❯", errorMark: "✗", noticeMark: "ℹ", ellipsis: "…", breakMark: "↩",
        spinner: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"], ascii: false)

    public static let plain = Glyphs(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|",
        bullet: "*", pointer: ">", errorMark: "x", noticeMark: "i", ellipsis: "...", breakMark: "\\",
        spinner: ["|", "/", "-", "\\"], ascii: true)
}
