@testable import FlowEngine
import ScreenTable
import Testing

/// What the runtime and the QA console tell the reducer: storage that failed, a moved
/// clock, a reset. Each is an event, and what follows is in the state and the effects.
@Suite struct RuntimeEventTests {
    @Test func aFileThatCannotBeWrittenIsSaidOnEveryScreenAndAfterAReset() {
        var flow = FlowDriver("oklah")
        flow.launch()
        let note = "Onboard could not save its state (disk full). Your progress may not survive a restart."
        flow.send(.storageFailed(note))
        flow.send(.storageFailed(note))
        #expect(flow.engine.view(of: flow.state).warnings == [note], "said once")
        flow.press("Start")
        #expect(flow.engine.view(of: flow.state).warnings == [note], "still said on the next screen")
        flow.send(.reset(Launch(session: nil, progress: nil, placeholderUserID: "p2")))
        #expect(flow.engine.view(of: flow.state).warnings == [note], "and after a reset")
    }

    @Test func aResetForgetsTheDeviceFirstThenStartsAsAFirstLaunch() {
        var flow = FlowDriver("oklah")
        flow.launch()
        flow.press("Start")
        let before = flow.state.calls.userCall!.id
        let effects = flow.send(.reset(Launch(session: nil, progress: nil, placeholderUserID: "p2")))
        #expect(effects.first == .forgetLocalData)
        #expect(flow.screen == "privacy")
        #expect(!flow.state.isBusy)
        // The answer to the call made before the reset is not taken for a new call's.
        flow.press("Start")
        let after = flow.state.calls.userCall!.id
        #expect(after != before)
        flow.send(.callFinished(id: before, result: .failure(ServiceFailure(code: "network", message: "down"))))
        #expect(flow.state.calls.userCall?.id == after, "the new call is still awaited")
        #expect(flow.state.message == nil)
    }

    @Test func aMovedClockRenewsAnExpiredSessionAtOnce() {
        var flow = FlowDriver("oklah")
        let session = Session(
            userID: "u_1", accessToken: "at", accessExpiresAt: flow.now / 1000 + 3600, refreshToken: "rt",
            refreshExpiresAt: nil, isAnonymous: true, createdAt: flow.now / 1000, lastAuthenticated: flow.now / 1000,
            onboardingComplete: true)
        flow.launch(session: session)
        #expect(flow.state.calls.renewalID == nil)
        flow.now += 3600 * 1000
        flow.send(.clockMoved)
        #expect(flow.state.calls.renewalID != nil)
    }
}
