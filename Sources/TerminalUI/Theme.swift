/// Styles per role. Colours are terminal colour numbers (0–255) or the eight names;
/// nil means the terminal's own default.
public struct Theme: Equatable, Sendable {
    public struct Style: Equatable, Sendable {
        public var foreground: Int?
        public var background: Int?
        public var bold = false
        public var underline = false
        public var reverse = false
        public var dim = false

        public init(
            foreground: Int? = nil, background: Int? = nil, bold: Bool = false, underline: Bool = false, reverse: Bool = false,
            dim: Bool = false
        ) {
            self.foreground = foreground
            self.background = background
            self.bold = bold
            self.underline = underline
            self.reverse = reverse
            self.dim = dim
        }
    }

    public var name: String
    public var styles: [Role: Style]

    public init(name: String, styles: [Role: Style]) {
        self.name = name
        self.styles = styles
    }

    public func style(_ role: Role) -> Style {
        styles[role] ?? styles[.text] ?? Style()
    }

    /// Whether the theme uses colour at all (mono themes use attributes only).
    public var usesColour: Bool {
        styles.values.contains { $0.foreground != nil || $0.background != nil }
    }

    /// What a role's style may set in a theme file; the first two take a colour, the rest
    /// true or false.
    public static let styleKeys = ["fg", "bg", "bold", "underline", "reverse", "dim"]
    public static let colourKeys: Set<String> = ["fg", "bg"]

    public static let colourNames = ["black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7]
}

/// The built-in themes, compiled. Theme files (the user's folder, a path, the YAML the
/// built-in ones are generated from) are `ThemeFiles`': the renderer knows no file system.
public enum Themes {
    public static let builtinNames = ["default", "light", "dark", "high-contrast", "mono"]

    /// A built-in theme, from its compiled form (`CompiledThemes`, generated from the YAML
    /// and checked against it by the tests): no resource lookup, no parse at launch.
    public static func builtin(_ name: String) throws -> Theme {
        if let theme = CompiledThemes.theme(name) { return theme }
        throw ThemeError(message: "no built-in theme named '\(name)'; built in: \(builtinNames.joined(separator: ", "))")
    }

    /// The theme a choice means without reading a file: mono when `NO_COLOR` is set, a
    /// built-in theme by its name (none named: `default`); nil for any other name or a
    /// path, which is a theme file's.
    public static func chosen(_ choice: String?, environment: [String: String]) -> Theme? {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return CompiledThemes.theme("mono") }
        return CompiledThemes.theme(choice ?? "default")
    }
}

public struct ThemeError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}
