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
}
