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
            for line in ["First", "Second", "Third", "Fourth", "Fifth", "Sixth"] where frame.text.contains("\(line) line") { seen.insert(line) }
        }
        #expect(seen == ["First", "Second", "Third", "Fourth", "Fifth", "Sixth"])
        #expect(renderer.render(view, width: 40, height: 12, scroll: top.bodyHidden).lines.last?.contains("PgUp up") == true)
    }
}
