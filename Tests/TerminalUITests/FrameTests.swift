import TerminalUI
import Testing
import ThemeFiles

@Suite struct FrameTests {
    init() {
        TextMetrics.prepareLocale()
    }

    @Test func wideCharactersTakeTwoColumnsAsInNcurses() {
        #expect(TextMetrics.width(of: "日本") == 4)
        #expect(TextMetrics.width(of: "e\u{301}") == 1)
        #expect(TextMetrics.width(of: "👍") == 2)
        var frame = Frame(width: 6, height: 1)
        let end = frame.put("日本語", x: 0, y: 0, role: .text)
        #expect(end == 6)
        #expect(frame.lines == ["日本語"])
        #expect(frame[1, 0].text == "")
    }

    @Test func aWideCharacterThatDoesNotFitIsLeftOut() {
        var frame = Frame(width: 5, height: 1)
        frame.put("ab日本", x: 0, y: 0, role: .text)
        #expect(frame.lines == ["ab日"])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var frame = Frame(width: 4, height: 1)
        frame.put("日本", x: 0, y: 0, role: .text)
        frame.put("x", x: 1, y: 0, role: .text)
        #expect(frame.lines == [" x本"])
    }

    @Test func wrappingKeepsWordsAndBreaksLongOnes() {
        #expect(TextMetrics.wrap("the quick brown fox", to: 9) == ["the quick", "brown fox"])
        #expect(TextMetrics.wrap("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
        #expect(TextMetrics.wrap("one\n\ntwo", to: 10) == ["one", "", "two"])
    }

    @Test func truncationEndsWithAnEllipsis() {
        #expect(TextMetrics.truncate("Something went wrong", to: 10) == "Something…")
        #expect(TextMetrics.truncate("short", to: 10) == "short")
    }

    @Test func aBrokenThemeNamesFileLineAndColumn() {
        #expect(throws: ThemeError.self) { try ThemeFiles.parse("name: x\nroles:\n  title: { fg: chartreuse }\n", file: "t.yaml") }
        do {
            _ = try ThemeFiles.parse("name: x\nroles:\n  title: { fg: chartreuse }\n", file: "t.yaml")
        } catch {
            #expect("\(error)".hasPrefix("t.yaml:3:16: 'chartreuse' is not a colour"))
        }
    }
}
