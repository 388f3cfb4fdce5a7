import Foundation
import TerminalUI
import Yams

/// A theme file's text read into a `Theme`.
extension ThemeFiles {
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
