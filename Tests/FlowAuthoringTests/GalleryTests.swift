@testable import FlowAuthoring
import FlowEngine
import ScreenTable
import Testing

/// Issue 48: the gallery reaches every state of every built-in flow through the engine,
/// and what it draws is what the flow says: each rule's message under its field, each
/// result's message on its screen. What it cannot draw is listed, and only for a reason
/// that holds for any run.
@Suite struct GalleryTests {
    static let day: Int64 = 1_784_116_800_000

    @Test(arguments: BuiltinFlows.ids) func everyStateIsDrawnOrSaysWhyNot(flowID: String) throws {
        let flow = try BuiltinFlows.load(flowID)
        let gallery = Gallery(flow: flow, now: Self.day)
        #expect(Set(gallery.entries.map(\.reach.screen)) == Set(flow.screens.map(\.id)), "every screen has a place")
        for entry in gallery.entries {
            let screen = try #require(flow.screen(entry.reach.screen))
            switch entry.reach {
            case .screen:
                #expect((entry.view == nil) == (screen.kind == .route), "\(entry.reach.id): \(entry.notDrawn ?? "drawn")")
                if let view = entry.view, !screen.title.isEmpty, !screen.title.contains("{") {
                    // A progress screen says its title beside the spinner.
                    #expect(view.title == screen.title || view.busyLabel == screen.title, "\(entry.reach.id)")
                }
            case .result(_, let operation, let code):
                guard code != "success" else {
                    #expect(entry.view == nil && entry.notDrawn?.contains("the screen it leads to") == true)
                    continue
                }
                let view = try #require(entry.view, "\(entry.reach.id): \(entry.notDrawn ?? "")")
                let call = CoverageMap.calls(on: screen).first { $0.operation.rawValue == operation }
                let outcome = call?.outcomes[code] ?? call?.outcomes["error"]
                // The words the outcome says, up to any value filled in.
                if let message = outcome?.message.map({ String($0.prefix { $0 != "{" }) }), !message.isEmpty {
                    let shown = [view.message.map(Self.text)].compactMap { $0 } + view.fields.compactMap(\.error) + [view.body]
                    #expect(shown.contains { $0.contains(message) }, "\(entry.reach.id): '\(message)' not in \(shown)")
                }
            case .message(_, let fieldID, let ruleName):
                let rule = try #require(screen.fields.first { $0.id == fieldID }?.rules.first { $0.name.rawValue == ruleName })
                guard let view = entry.view else {
                    // A range's two ends are kept in order by the widget itself.
                    #expect(rule.name == .ordered, "\(entry.reach.id): \(entry.notDrawn ?? "")")
                    continue
                }
                #expect(view.fields.contains { $0.error == rule.message }, "\(entry.reach.id): '\(rule.message)' not under its field")
            }
        }
    }

    @Test func theKeysToAScreenAreTheQAConsolesJump() throws {
        let flow = try BuiltinFlows.load("oklah")
        let gallery = Gallery(flow: flow, now: Self.day)
        let home = try #require(gallery.entries.first { $0.reach == .screen("home") })
        let index = try #require(flow.screens.filter { $0.kind != .route }.firstIndex { $0.id == "home" })
        #expect(
            home.keys
                == (["<C-g>", "<Down>", "<Down>", "<Down>", "<Down>", "<Enter>"] + Array(repeating: "<Down>", count: index) + ["<Enter>"])
                .joined())
    }

    static func text(_ message: FlowState.Message) -> String {
        switch message {
        case .error(let text), .notice(let text): text
        }
    }
}
