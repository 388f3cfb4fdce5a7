@testable import FlowEngine
import FlowFiles
import Foundation
import ScreenTable
import Testing

/// A flow from a file, not built in: form validation, a call from an action, and a
/// branch on its result.
@Suite struct CustomFlowReducerTests {
    static let examplePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/nickname.yaml")

    /// The example flow, launched on its form.
    func story() -> FlowDriver {
        var flow = FlowDriver(flow: try! FlowFiles.load(url: Self.examplePath))
        flow.launch(
            effects: ["save progress at ask"],
            changes: ["phase = showing", "placeholder = p", "screen = ask", "since = now", "started = now", "starts run removed"])
        return flow
    }

    @Test func submittingEmptyShowsTheRequiredMessageAndMakesNoCall() {
        var flow = story()
        flow.key(.focusNext, effects: ["save progress at ask"], changes: ["focus = 1"])  // to Continue
        flow.key(.activate, effects: [], changes: ["error.nickname = Please enter a nickname.", "focus = 0"])
        #expect(flow.state.form.errors["nickname"] == "Please enter a nickname.")
        #expect(flow.state.form.focus == 0)
    }

    @Test func aShortNicknameShowsTheMinLengthMessage() {
        var flow = story()
        flow.type("Al", effects: [], changes: ["context.nickname = Al", "edited = now"])
        flow.key(
            .activate, effects: ["save progress at ask"],
            changes: ["edited removed", "error.nickname = A nickname needs at least 3 characters."])  // Enter in the only field submits the form
        #expect(flow.state.form.errors["nickname"] == "A nickname needs at least 3 characters.")
    }

    @Test func aPasteLongerThanTheFieldIsCutWithAMessage() {
        var flow = story()
        flow.type(
            String(repeating: "x", count: 1_000_000), effects: [],
            changes: [
                "context.nickname = xxxxxxxxxxxxxxxxxxxx",
                "edited = now",
                "error.nickname = Only 20 characters fit here; the rest was left out.",
            ])
        #expect(flow.text("nickname") == String(repeating: "x", count: 20))
        #expect(flow.state.form.errors["nickname"]?.contains("20 characters") == true)
    }

    @Test func aPasteIsTextForTheFieldAndNeverAKey() {
        var flow = story()
        flow.key(.paste("Al\nice\r\n"), effects: [], changes: ["context.nickname = Alice", "edited = now"])
        #expect(flow.text("nickname") == "Alice")
        #expect(flow.screen == "ask", "a newline in a paste presses nothing")
    }

    @Test func lineFrontEndsFocusAnItemAndSetAWholeValue() {
        var flow = story()
        flow.type("Bob", effects: [], changes: ["context.nickname = Bob", "edited = now"])
        flow.key(.setValue(.text("Alice")), effects: [], changes: ["context.nickname = Alice"])
        #expect(flow.text("nickname") == "Alice", "the value is replaced, not added to")
        flow.key(.focus(1), effects: ["save progress at ask"], changes: ["edited removed", "focus = 1"])
        #expect(flow.state.form.focus == 1)
        flow.key(.focus(99), effects: [], changes: [])
        #expect(flow.state.form.focus == 1, "an item that does not exist is not focused")
    }

    @Test func controlCharactersAreDroppedFromTypedText() {
        var flow = story()
        flow.type("Al\u{1B}[31mi\u{07}", effects: [], changes: ["context.nickname = Al[31mi", "edited = now"])
        #expect(flow.text("nickname") == "Al[31mi")
    }

    @Test func aValidNicknameCallsTheServiceAndBranchesOnTheResult() {
        var flow = story()
        flow.type("Alice", effects: [], changes: ["context.nickname = Alice", "edited = now"])
        flow.press(
            "Continue", effects: ["save progress at ask", "call health"],
            changes: ["call 1 = health (user's, from ask)", "edited removed", "focus = 1"])
        flow.fail(
            "network", "down", effects: ["save progress at ask"],
            changes: [
                "call 1 removed",
                "context.error_code = network",
                "context.error_message = down",
                "focus = 0",
                "history = ask",
                "last failure = ask",
                "screen = offline",
            ])
        #expect(flow.screen == "offline")
        #expect(flow.shown.body == "The service could not be reached (network).")
        flow.press(
            "Try Again", effects: ["save progress at ask", "call health"],
            changes: ["call 2 = health (user's, from ask)", "retries = 1", "screen = ask"])
        #expect(flow.screen == "ask")
        flow.answer(
            .success(CallOutput()), effects: ["save progress at welcome"],
            changes: [
                "call 2 removed",
                "context.error_code removed",
                "context.error_message removed",
                "history = ask › ask",
                "last failure removed",
                "onboarding = complete",
                "retries removed",
                "screen = welcome", "succeeded health = now",
            ])
        #expect(flow.screen == "welcome")
        #expect(flow.shown.title == "Welcome, Alice!")
        // Esc goes back to the form, with the value kept.
        flow.key(.back, effects: ["save progress at ask"], changes: ["history = ask", "screen = ask"])
        #expect(flow.screen == "ask")
        #expect(flow.text("nickname") == "Alice")
    }

    /// What QA's coverage counts: each screen arrived at, the branch each result took
    /// (`error` for a code with no branch of its own) and which rule's message showed.
    @Test func theEngineSaysWhatWasReachedForQACoverage() {
        var flow = story()
        #expect(flow.reached == [.screen("ask")])
        flow.key(.activate, effects: ["save progress at ask"], changes: ["error.nickname = Please enter a nickname."])
        flow.type("Al", effects: [], changes: ["context.nickname = Al", "edited = now", "error.nickname removed"])
        flow.key(
            .activate, effects: ["save progress at ask"],
            changes: ["edited removed", "error.nickname = A nickname needs at least 3 characters."])
        #expect(
            flow.reached.suffix(2) == [
                .message(screen: "ask", field: "nickname", rule: "required"),
                .message(screen: "ask", field: "nickname", rule: "min_length"),
            ])
        flow.type("ice", effects: [], changes: ["context.nickname = Alice", "edited = now", "error.nickname removed"])
        flow.press(
            "Continue", effects: ["save progress at ask", "call health"],
            changes: ["call 1 = health (user's, from ask)", "edited removed", "focus = 1"])
        flow.fail(
            "network", "down", effects: ["save progress at ask"],
            changes: [
                "call 1 removed",
                "context.error_code = network",
                "context.error_message = down",
                "focus = 0",
                "history = ask",
                "last failure = ask",
                "screen = offline",
            ])
        #expect(flow.reached.suffix(2) == [.result(screen: "ask", operation: "health", code: "error"), .screen("offline")])
        flow.press(
            "Try Again", effects: ["save progress at ask", "call health"],
            changes: ["call 2 = health (user's, from ask)", "retries = 1", "screen = ask"])
        flow.answer(
            .success(CallOutput()), effects: ["save progress at welcome"],
            changes: [
                "call 2 removed",
                "context.error_code removed",
                "context.error_message removed",
                "history = ask › ask",
                "last failure removed",
                "onboarding = complete",
                "retries removed",
                "screen = welcome", "succeeded health = now",
            ])
        #expect(flow.reached.suffix(2) == [.result(screen: "ask", operation: "health", code: "success"), .screen("welcome")])
    }
}
