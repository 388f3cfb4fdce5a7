import Foundation
import Installation
import TerminalUI

/// Where themes are: built in (compiled into `TerminalUI`; `Themes/` holds their YAML),
/// the user's own in `$XDG_CONFIG_HOME/onboard/themes/NAME.yaml`,
/// or a path; `NO_COLOR` forces mono.
public enum ThemeFiles {
    /// The user's theme folder.
    public static func userFolder(environment: [String: String]) -> String {
        ConfigFolder.path(environment: environment) + "/themes"
    }

    /// Every theme name on offer: built in, then the user's.
    public static func available(environment: [String: String]) -> [String] {
        let own = ((try? FileManager.default.contentsOfDirectory(atPath: userFolder(environment: environment))) ?? [])
            .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
        return Themes.builtinNames + own.filter { !Themes.builtinNames.contains($0) }
    }

    /// `NAME` of a built-in or user theme, or a path to a theme file. `NO_COLOR` forces mono.
    public static func load(_ nameOrPath: String?, environment: [String: String]) throws -> Theme {
        if let theme = Themes.chosen(nameOrPath, environment: environment) { return theme }
        let choice = nameOrPath ?? "default"
        guard let path = file(choice, environment: environment) else {
            throw ThemeError(
                message:
                    "no theme named '\(choice)' (available: \(available(environment: environment).joined(separator: ", "))), and no such file"
            )
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try parse(text, file: path)
    }

    /// The file a theme choice reads (the user's own `NAME.yaml`, or a path); nil for a
    /// built-in theme or when there is no such file.
    public static func file(_ nameOrPath: String, environment: [String: String]) -> String? {
        if Themes.builtinNames.contains(nameOrPath) { return nil }
        let own = userFolder(environment: environment) + "/\(nameOrPath).yaml"
        let path = FileManager.default.fileExists(atPath: own) ? own : nameOrPath
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}
