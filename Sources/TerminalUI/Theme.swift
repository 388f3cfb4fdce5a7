import Foundation
import Yams

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

/// The built-in themes, and a theme file's text read into a `Theme`. Where theme files are
/// (the user's folder, a path) is the runtime's business (`ThemeFiles`): the renderer
/// knows no file system.
public enum Themes {
    public static let builtinNames = ["default", "light", "dark", "high-contrast", "mono"]

    /// A built-in theme, from its compiled form (`CompiledThemes`, generated from the YAML
    /// and checked against it by the tests): no resource lookup, no parse at launch.
    public static func builtin(_ name: String) throws -> Theme {
        if let theme = CompiledThemes.theme(name) { return theme }
        return try bundled(name)
    }

    /// A built-in theme read from its YAML in the package's resources.
    static func bundled(_ name: String) throws -> Theme {
        guard let url = Bundle.module.url(forResource: name, withExtension: "yaml", subdirectory: "Themes") else {
            throw ThemeError(message: "the built-in theme '\(name)' is missing from this build")
        }
        return try parse(String(contentsOf: url, encoding: .utf8), file: "\(name).yaml")
    }

    /// Reads `name:` and `roles: {role: {fg, bg, bold, underline, reverse, dim}}`.
    public static func parse(_ text: String, file: String) throws -> Theme {
        func fail(_ message: String, _ node: Node?) -> ThemeError {
            let mark = node?.mark
            return ThemeError(message: "\(file):\(mark?.line ?? 1):\(mark?.column ?? 1): \(message)")
        }
        let root: Node?
        do { root = try Yams.compose(yaml: text, .basic) } catch { throw ThemeError(message: "\(file): not valid YAML: \(error)") }
        guard let root, let map = root.mapping else { throw fail("a theme must be a mapping with 'name' and 'roles'", root) }
        let name = map["name"]?.string ?? file
        guard let roles = map["roles"]?.mapping else { throw fail("the theme has no 'roles' mapping", root) }
        var styles: [Role: Theme.Style] = [:]
        for (key, value) in roles {
            guard let roleName = key.string, let role = Role(rawValue: roleName) else {
                throw fail("unknown role '\(key.string ?? "")'; known: \(Role.allCases.map(\.rawValue).joined(separator: ", "))", key)
            }
            guard let attributes = value.mapping else { throw fail("role '\(roleName)' must be a mapping", value) }
            var style = Theme.Style()
            for (attributeKey, attributeValue) in attributes {
                switch attributeKey.string ?? "" {
                case "fg": style.foreground = try colour(attributeValue, fail)
                case "bg": style.background = try colour(attributeValue, fail)
                case "bold": style.bold = attributeValue.bool ?? false
                case "underline": style.underline = attributeValue.bool ?? false
                case "reverse": style.reverse = attributeValue.bool ?? false
                case "dim": style.dim = attributeValue.bool ?? false
                default:
                    throw fail(
                        "unknown style '\(attributeKey.string ?? "")'; known: \(Theme.styleKeys.joined(separator: ", "))", attributeKey)
                }
            }
            styles[role] = style
        }
        return Theme(name: name, styles: styles)
    }

    private static func colour(_ node: Node, _ fail: (String, Node?) -> ThemeError) throws -> Int? {
        if let number = node.int, (0...255).contains(number) { return number }
        if let name = node.string {
            if name == "default" { return nil }
            if let number = Theme.colourNames[name] { return number }
        }
        throw fail(
            "'\(node.string ?? "")' is not a colour: use 0-255, default, or one of \(Theme.colourNames.keys.sorted().joined(separator: ", "))",
            node)
    }
}

public struct ThemeError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}
