import ScreenTable
@testable import FlowEngine
import TerminalUI
import Testing

/// A body longer than the screen is a window PgUp/PgDn move, never text cut for good.
@Suite struct BodyScrollTests {
    init() {
        TextMetrics.prepareLocale()
    }

    var view: ScreenView {
        var view = ScreenView()
        view.title = "Long"
        view.bullets = (1...12).map { "Line \($0)" }
        view.buttons = [ScreenView.ItemView(label: "Done", focused: true)]
        return view
    }

    @Test func everyLineCanBeReadAndTheButtonStays() {
        let renderer = Renderer()
        let top = renderer.render(view, width: 40, height: 12)
        #expect(top.bodyHidden > 0)
        #expect(top.text.contains("Line 1") && top.text.contains("↓ …") && !top.text.contains("↑ …"))
        #expect(top.lines.last?.contains("PgDn more") == true)
        var seen: Set<String> = []
        for scroll in 0...top.bodyHidden {
            let frame = renderer.render(view, width: 40, height: 12, scroll: scroll)
            #expect(frame.text.contains("[ Done ]") || frame.text.contains("> Done <"), "the button stays at scroll \(scroll)")
            for number in 1...12 where frame.text.contains("Line \(number)\n") || frame.text.contains("Line \(number) ") {
                seen.insert("Line \(number)")
            }
        }
        #expect(seen.count == 12, "every line was on screen at some scroll: \(seen.sorted())")
        let bottom = renderer.render(view, width: 40, height: 12, scroll: 1000)
        #expect(bottom.text.contains("Line 12") && bottom.text.contains("↑ …") && !bottom.text.contains("↓ …"))
        #expect(bottom.lines.last?.contains("PgUp up") == true)
    }

    /// A form whose fields and buttons fill a 40x12 card keeps them all still; what room is
    /// left is a window on the body (with markers, or one bare line), and PgDn reaches its
    /// last line.
    @Test(arguments: [["Name", "Email"], ["Name", "Email", "Phone"]])
    func aFullFormStillLetsTheBodyBeRead(labels: [String]) {
        var view = ScreenView()
        view.title = "Form"
        view.body = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth"].map { "\($0) line of the body." }.joined(separator: "\n")
        view.fields = labels.map {
            ScreenView.FieldView(label: $0, value: "", placeholder: "", error: nil, focused: $0 == "Name", secret: false)
        }
        view.buttons = [ScreenView.ItemView(label: "Continue", focused: false)]
        let renderer = Renderer()
        let top = renderer.render(view, width: 40, height: 12)
        #expect(top.bodyHidden > 0 && top.bodyShown > 0, "\(top.text)")
        #expect(top.text.contains("First line") && top.lines.last?.contains("PgDn more") == true, "\(top.text)")
        var seen: Set<String> = []
        for scroll in 0...top.bodyHidden {
            let frame = renderer.render(view, width: 40, height: 12, scroll: scroll)
            #expect(labels.allSatisfy(frame.text.contains) && frame.text.contains("Continue"), "\(frame.text)")
            for line in ["First", "Second", "Third", "Fourth", "Fifth", "Sixth"] where frame.text.contains("\(line) line") {
                seen.insert(line)
            }
        }
        #expect(seen == ["First", "Second", "Third", "Fourth", "Fifth", "Sixth"])
        #expect(renderer.render(view, width: 40, height: 12, scroll: top.bodyHidden).lines.last?.contains("PgUp up") == true)
    }
}

/// Issue 32: a long value scrolled with the cursor pinned to the left edge (40x12, Home,
/// Right: the text slid under it; Alt-F three times at 80x24 hid the start). The cursor
/// keeps text on both sides, and the start shows while the cursor is near it.
@Suite struct LongValueScrollTests {
    static let value = (0..<12).map { "word\($0)" }.joined(separator: " ")  // 71 characters

    /// The visible part of the field and the cursor's column in it, at 40x12.
    func shown(caret: Int?) -> (text: String, cursor: Int) {
        var view = ScreenView()
        view.title = "Name"
        var field = ScreenView.FieldView(label: "Name", value: Self.value, placeholder: "", error: nil, focused: true, secret: false)
        field.caret = caret
        view.fields = [field]
        let frame = Renderer().render(view, width: 40, height: 12)
        let cursor = try! #require(frame.cursor)
        let line = frame.lines[cursor.y]
        let box = line.dropFirst(4).prefix(31)  // inside the card: the input's columns
        return (String(box), cursor.x - 4)
    }

    @Test func theCursorKeepsTextOnBothSidesAndTheStartShowsNearIt() {
        #expect(shown(caret: nil).text.hasSuffix("word11"), "at the end, the end shows")
        let home = shown(caret: 0)
        #expect(home.text.hasPrefix("word0 word1") && home.cursor == 0)
        let right = shown(caret: 1)
        #expect(right.text == home.text && right.cursor == 1, "Right moves the cursor, not the text")
        for caret in stride(from: 12, to: Self.value.count - 12, by: 5) {
            let middle = shown(caret: caret)
            #expect(middle.cursor >= 9 && middle.cursor <= 21, "caret \(caret): cursor at \(middle.cursor) of 31:\n\(middle.text)")
        }
        let thirdWord = shown(caret: Self.value.distance(from: Self.value.startIndex, to: Self.value.range(of: " word3")!.lowerBound))
        #expect(thirdWord.text.hasPrefix("word0"), "three words in, the start still shows: \(thirdWord.text)")
    }
}

/// Issue 32: RuckTracker's Add Email at 40x12 offered "PgDn more" while its body and four
/// benefits had no row at all, and PgDn moved nothing. PgDn now reads the body in the card
/// (the form out of view until the next key), and PgUp back at the top returns to the form.
@Suite struct ReadingABodyWithNoRoomTests {
    @Test func pgDnReadsTheBodyAndTheFormComesBack() throws {
        let engine = FlowEngine(flow: try BuiltinFlows.load("rucktracker"))
        let view = engine.view(of: .showing("add_email"))
        let renderer = Renderer()
        let form = renderer.render(view, width: 40, height: 12)
        #expect(form.lines.last?.contains("PgDn more") == true, "\(form.text)")
        #expect(!form.readingBody && form.text.contains("Email"))
        var seen = ""
        var scroll = 1
        while scroll <= form.bodyHidden {
            let page = renderer.render(view, width: 40, height: 12, scroll: scroll)
            #expect(page.readingBody, "\(page.text)")
            #expect(!page.text.contains("Password"), "the form is out of view while reading")
            seen += page.text
            scroll += max(1, page.bodyShown - 1)
        }
        for benefit in ["Sync data across devices", "Secure your account", "Never lose your progress", "Keep all your data"] {
            #expect(seen.contains(benefit), "\(benefit) read at 40x12")
        }
    }
}

/// Issue 32: QA › Context at 40x12 cut the user id at the card's edge with nothing to say
/// it went on. A word broken across lines ends each piece with a mark, as Emacs does.
@Suite struct BrokenWordTests {
    @Test func aPieceOfABrokenWordEndsWithAMarkAndTheWordIsWhole() {
        let id = "u_558770381ff693617a966cb9dcd6a1b2"
        let lines = TextMetrics.wrap("user \(id) (anonymous)", to: 30, rest: 28, breakMark: "↩")
        #expect(lines == ["user", "u_558770381ff693617a966cb9d↩", "cd6a1b2 (anonymous)"], "\(lines)")
        #expect(TextMetrics.wrap("short words only", to: 30, breakMark: "↩") == ["short words only"])
    }
}

/// Issue 32: with `LANG=C` ruck lines still held `·`. On a terminal that is not UTF-8 every
/// text is folded to ASCII, and a typed value keeps one character for one.
@Suite struct ASCIIFoldingTests {
    @Test func aNonUTF8TerminalGetsOnlyASCII() throws {
        var view = ScreenView()
        view.title = "Your rucks — “today”"
        view.items = ["5.5 km in 60 min · 2026-11-25 10:00", "Café → done ✓"]
        var field = ScreenView.FieldView(label: "Name", value: "José", placeholder: "", error: nil, focused: true, secret: false)
        field.caret = 3
        view.fields = [field]
        let frame = Renderer(glyphs: .plain).render(view, width: 60, height: 20)
        let allASCII = frame.text.unicodeScalars.allSatisfy(\.isASCII)
        #expect(allASCII, "\(frame.text)")
        #expect(frame.text.contains("5.5 km in 60 min - 2026-11-25 10:00"))
        #expect(frame.text.contains("Cafe -> done +"))
        #expect(frame.text.contains("Jose"))
        let cursor = try #require(frame.cursor)
        let underCursor = Array(frame.lines[cursor.y])[cursor.x]
        #expect(underCursor == "e", "the cursor stays on the 4th letter")
    }
}
