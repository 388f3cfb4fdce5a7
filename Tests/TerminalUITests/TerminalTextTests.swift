import FlowEngine
import TerminalUI
import Testing

/// Issue 31: the terminal never executes text it received. The hostile strings of the
/// review, through the one function and the renderer that uses it.
@Suite struct TerminalTextTests {
    init() {
        TextMetrics.prepareLocale()
    }

    static let hostile = [
        "Pat\u{1B}]0;PWNED\u{07}",  // sets the window title
        "Ray\u{1B}[2J",  // clears the screen
        "Al\u{1B}]52;c;ZXZpbA==\u{07}",  // writes the clipboard
        "Shared by Mal\rRED",  // a bare CR overwrites from column 0
        "\u{202E}txt.exe",  // right-to-left override
        "C1\u{9B}31m and DEL\u{7F}",
    ]

    static func isInert(_ text: String) -> Bool {
        !text.unicodeScalars.contains {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || [0x202E, 0x202D, 0x2066, 0x200F].contains($0.value)
        }
    }

    @Test func everyControlIsShownAndNoneIsLeft() {
        for text in Self.hostile {
            let safe = TerminalText.safe(text, keepingNewlines: false)
            #expect(Self.isInert(safe), "\(safe.debugDescription)")
            #expect(safe.count == text.unicodeScalars.count || safe.count == text.count, "one sign for one character")
        }
        #expect(TerminalText.safe("Pat\u{1B}]0;PWNED\u{07}") == "Pat␛]0;PWNED␇")
        #expect(TerminalText.safe("Shared by Mal\rRED") == "Shared by Mal␍RED")
        #expect(TerminalText.safe("Ana López 日本\nnext") == "Ana López 日本\nnext", "ordinary text and line breaks are left alone")
    }

    @Test func aScreenOfHostileTextRendersInertAndWithinItsWidth() {
        var view = ScreenView()
        view.title = Self.hostile[0]
        view.body = Self.hostile.joined(separator: " ")
        view.items = Self.hostile
        view.bullets = Self.hostile
        view.message = .error(Self.hostile[3])
        view.buttons = [ScreenView.ItemView(label: Self.hostile[2], focused: true)]
        let frame = Renderer().render(view, width: 60, height: 30)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                #expect(Self.isInert(frame[x, y].text), "cell \(x),\(y): \(frame[x, y].text.debugDescription)")
            }
        }
        #expect(frame.lines.allSatisfy { TextMetrics.width(of: $0) <= 60 })
        #expect(frame.lines.contains { $0.contains("Shared by Mal␍RED") }, "the CR is shown where it was, the border intact")
    }
}
