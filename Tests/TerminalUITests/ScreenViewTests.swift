import FlowEngine
import ScreenTable
import TerminalUI
import Testing

/// What a screen offers, as the view shows it.
@Suite struct ScreenViewTests {
    @Test func aChecklistShowsItsButtonsOnlyOnceEveryTaskHasAnOutcome() throws {
        let engine = FlowEngine(flow: try BuiltinFlows.load("miga"))
        var state = FlowState.showing("setup")
        state.checklist.tasks = [.done("ready"), .failed("The service cannot be reached."), .waiting, .waiting, .waiting]
        #expect(engine.view(of: state).buttons.isEmpty, "a failed step: Enter retries, nothing to press")
        state.checklist.tasks = [.done("ready"), .fellBack("local-only mode"), .done(""), .done(""), .done("")]
        #expect(engine.view(of: state).buttons.map(\.label) == ["Continue"])
    }
}

extension FlowState {
    /// A state showing one screen of a flow, nothing typed or called yet.
    static func showing(_ screenID: String) -> FlowState {
        FlowState(showing: screenID)
    }
}
