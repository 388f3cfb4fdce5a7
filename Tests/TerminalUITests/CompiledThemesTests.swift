import Foundation
import Testing
@testable import TerminalUI
import ThemeFiles

/// The built-in themes ship as YAML (what people read and copy) and as Swift built from
/// it (what a launch uses: no resource lookup, no parse). These keep the two the same.
@Suite struct CompiledThemesTests {
    static let sourceFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/TerminalUI/CompiledThemes.swift")

    /// A built-in theme read from its YAML in `Sources/ThemeFiles/Themes`, as a theme file is.
    static func parsed(_ name: String) throws -> Theme {
        let file = sourceFile.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ThemeFiles/Themes/\(name).yaml")
        return try ThemeFiles.parse(String(contentsOf: file, encoding: .utf8), file: "\(name).yaml")
    }

    static func source(_ themes: [(file: String, theme: Theme)]) -> String {
        var lines = [
            "// Generated from Themes/*.yaml; do not edit. After changing a built-in theme, run",
            "//   ONBOARD_REGENERATE=1 swift test --filter CompiledThemesTests",
            "",
            "enum CompiledThemes {",
            "    static func theme(_ name: String) -> Theme? {",
            "        switch name {",
        ]
        for (file, theme) in themes {
            lines.append("        case \"\(file)\": Theme(name: \"\(theme.name)\", styles: [")
            for role in Role.allCases {
                guard let style = theme.styles[role] else { continue }
                var parts: [String] = []
                if let colour = style.foreground { parts.append("foreground: \(colour)") }
                if let colour = style.background { parts.append("background: \(colour)") }
                for (name, on) in [("bold", style.bold), ("underline", style.underline), ("reverse", style.reverse), ("dim", style.dim)]
                where on {
                    parts.append("\(name): true")
                }
                lines.append("            .\(role): Theme.Style(\(parts.joined(separator: ", "))),")
            }
            lines.append("        ])")
        }
        lines += ["        default: nil", "        }", "    }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func theCompiledSourceIsWhatTheYAMLSays() throws {
        let expected = Self.source(try Themes.builtinNames.map { ($0, try Self.parsed($0)) })
        if ProcessInfo.processInfo.environment["ONBOARD_REGENERATE"] == "1" {
            try expected.write(to: Self.sourceFile, atomically: true, encoding: .utf8)
        }
        #expect(
            try String(contentsOf: Self.sourceFile, encoding: .utf8) == expected,
            "CompiledThemes.swift is stale: run ONBOARD_REGENERATE=1 swift test --filter CompiledThemesTests")
    }

    @Test(arguments: Themes.builtinNames)
    func aBuiltInThemeIsItsYAMLs(name: String) throws {
        #expect(try Themes.builtin(name) == Self.parsed(name))
    }
}
