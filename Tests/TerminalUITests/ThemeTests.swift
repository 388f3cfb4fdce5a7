import Foundation
import TerminalUI
import Testing

@Suite struct ThemeTests {
    @Test(arguments: Themes.builtinNames) func everyBuiltinThemeLoadsAndStylesEveryRole(name: String) throws {
        let theme = try Themes.builtin(name)
        #expect(theme.name == name)
        for role in [Role.title, .buttonFocused, .error, .help] {
            #expect(theme.styles[role] != nil, "\(name) styles \(role)")
        }
    }

    @Test func coloursFitTheTerminal() {
        #expect(ColourFitting.fit(208, available: 256) == 208)
        #expect(ColourFitting.fit(9, available: 8) == 1, "bright red -> red")
        #expect(ColourFitting.fit(196, available: 8) == 1, "cube red -> red")
        #expect(ColourFitting.fit(117, available: 8) == 6, "light blue -> cyan")
        #expect(ColourFitting.fit(16, available: 8) == 0, "cube black -> black")
        #expect(ColourFitting.fit(240, available: 8) == 0, "dark grey -> black")
        #expect(ColourFitting.fit(252, available: 16) == 7, "light grey -> white")
    }

    @Test func aPreviewIsTheFrameInANSIColours() {
        var frame = Frame(width: 5, height: 1)
        frame.put("Hi", x: 0, y: 0, role: .title)
        let text = ANSIPreview.render(frame, theme: Theme(name: "t", styles: [.title: Theme.Style(foreground: 2, bold: true)]))
        #expect(text.hasPrefix("\u{1B}[0;1;38;5;2mHi\u{1B}[0m"))
    }
}
