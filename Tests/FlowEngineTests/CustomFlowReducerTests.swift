@testable import FlowEngine
import Foundation
import ScreenTable
import Testing

/// A flow from a file, not built in: form validation, a call from an action, and a
/// branch on its result.
@Suite struct CustomFlowReducerTests {
    static let examplePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/nickname.yaml")
    let engine = FlowEngine(flow: try! FlowFiles.load(url: examplePath))

    func start() -> FlowState {
        var state = FlowState()
        _ = engine.reduce(&state, .launched(Launch(session: nil, progress: nil, placeholderUserID: "p")), now: 0)
        return state
    }

    @Test func submittingEmptyShowsTheRequiredMessageAndMakesNoCall() {
        var state = start()
        _ = engine.reduce(&state, .intent(.focusNext), now: 0) // to Continue
        let effects = engine.reduce(&state, .intent(.activate), now: 0)
        #expect(state.form.errors["nickname"] == "Please enter a nickname.")
        #expect(state.form.focus == 0)
        #expect(!effects.contains { if case .call = $0 { true } else { false } })
    }

    @Test func aShortNicknameShowsTheMinLengthMessage() {
        var state = start()
        _ = engine.reduce(&state, .intent(.insert("Al")), now: 0)
        _ = engine.reduce(&state, .intent(.activate), now: 0) // Enter in the field moves on
        _ = engine.reduce(&state, .intent(.activate), now: 0)
        #expect(state.form.errors["nickname"] == "A nickname needs at least 3 characters.")
    }

    @Test func aPasteLongerThanTheFieldIsCutWithAMessage() {
        var state = start()
        _ = engine.reduce(&state, .intent(.insert(String(repeating: "x", count: 1_000_000))), now: 0)
        #expect(state.context["nickname"] == .text(String(repeating: "x", count: 20)))
        #expect(state.form.errors["nickname"]?.contains("20 characters") == true)
    }

    @Test func aPasteIsTextForTheFieldAndNeverAKey() {
        var state = start()
        _ = engine.reduce(&state, .intent(.paste("Al\nice\r\n")), now: 0)
        #expect(state.context["nickname"] == .text("Alice"))
        #expect(state.screenID == "ask", "a newline in a paste presses nothing")
    }

    @Test func lineFrontEndsFocusAnItemAndSetAWholeValue() {
        var state = start()
        _ = engine.reduce(&state, .intent(.insert("Bob")), now: 0)
        _ = engine.reduce(&state, .intent(.setValue(.text("Alice"))), now: 0)
        #expect(state.context["nickname"] == .text("Alice"), "the value is replaced, not added to")
        _ = engine.reduce(&state, .intent(.focus(1)), now: 0)
        #expect(state.form.focus == 1)
        _ = engine.reduce(&state, .intent(.focus(99)), now: 0)
        #expect(state.form.focus == 1, "an item that does not exist is not focused")
    }

    @Test func controlCharactersAreDroppedFromTypedText() {
        var state = start()
        _ = engine.reduce(&state, .intent(.insert("Al\u{1B}[31mi\u{07}")), now: 0)
        #expect(state.context["nickname"] == .text("Al[31mi"))
    }

    @Test func aValidNicknameCallsTheServiceAndBranchesOnTheResult() {
        var state = start()
        _ = engine.reduce(&state, .intent(.insert("Alice")), now: 0)
        _ = engine.reduce(&state, .intent(.focusNext), now: 0)
        _ = engine.reduce(&state, .intent(.activate), now: 0)
        let id = state.calls.userCall!.id
        _ = engine.reduce(&state, .callFinished(id: id, result: .failure(ServiceFailure(code: "network", message: "down"))), now: 0)
        #expect(state.screenID == "offline")
        #expect(Placeholders.fill(engine.flow.screen("offline")!.body, from: state.context) == "The service could not be reached (network).")
        _ = engine.reduce(&state, .intent(.activate), now: 0) // Try Again
        #expect(state.screenID == "ask")
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(CallOutput())), now: 0)
        #expect(state.screenID == "welcome")
        #expect(Placeholders.fill(engine.flow.screen("welcome")!.title, from: state.context) == "Welcome, Alice!")
        // Esc goes back to the form, with the value kept.
        _ = engine.reduce(&state, .intent(.back), now: 0)
        #expect(state.screenID == "ask")
        #expect(state.context["nickname"] == .text("Alice"))
    }
}
