@testable import FlowEngine
import ScreenTable
import Testing

/// What the runtime and the QA console tell the reducer: storage that failed, a moved
/// clock, a reset. Each is an event, and what follows is in the state and the effects.
@Suite struct RuntimeEventTests {
    @Test func aFileThatCannotBeWrittenIsSaidOnEveryScreenAndAfterAReset() {
        var flow = FlowDriver("oklah", exhaustive: true)
        flow.launch(effects: ["track onboarding_start", "save progress at privacy"])
        let note = "Onboard could not save its state (disk full). Your progress may not survive a restart."
        flow.send(.storageFailed(note), effects: [])
        flow.send(.storageFailed(note), effects: [])
        #expect(flow.engine.view(of: flow.state).warnings == [note], "said once")
        flow.press("Start", effects: ["save progress at privacy", "call sign_in_anonymously"])
        #expect(flow.engine.view(of: flow.state).warnings == [note], "still said on the next screen")
        flow.send(.reset(Launch(session: nil, progress: nil, placeholderUserID: "p2")), effects: ["forget local data", "track onboarding_start", "save progress at privacy"])
        #expect(flow.engine.view(of: flow.state).warnings == [note], "and after a reset")
    }

    @Test func aResetForgetsTheDeviceFirstThenStartsAsAFirstLaunch() {
        var flow = FlowDriver("oklah", exhaustive: true)
        flow.launch(effects: ["track onboarding_start", "save progress at privacy"])
        flow.press("Start", effects: ["save progress at privacy", "call sign_in_anonymously"])
        let before = flow.state.calls.userCall!.id
        let effects = flow.send(.reset(Launch(session: nil, progress: nil, placeholderUserID: "p2")), effects: ["forget local data", "track onboarding_start", "save progress at privacy"])
        #expect(effects.first == .forgetLocalData)
        #expect(flow.screen == "privacy")
        #expect(!flow.state.isBusy)
        // The answer to the call made before the reset is not taken for a new call's.
        flow.press("Start", effects: ["save progress at privacy", "call sign_in_anonymously"])
        let after = flow.state.calls.userCall!.id
        #expect(after != before)
        flow.send(.callFinished(id: before, result: .failure(ServiceFailure(code: "network", message: "down"))), effects: [])
        #expect(flow.state.calls.userCall?.id == after, "the new call is still awaited")
        #expect(flow.state.message == nil)
    }

    @Test func aMovedClockRenewsAnExpiredSessionAtOnce() {
        var flow = FlowDriver("oklah", exhaustive: true)
        let session = Session(
            userID: "u_1", accessToken: "at", accessExpiresAt: flow.now / 1000 + 3600, refreshToken: "rt",
            refreshExpiresAt: nil, isAnonymous: true, createdAt: flow.now / 1000, lastAuthenticated: flow.now / 1000,
            onboardingComplete: true)
        flow.launch(session: session, progress: .oklahHome, effects: ["save progress at home", "call motivation"])
        #expect(flow.state.calls.renewalID == nil)
        flow.now += 3600 * 1000
        flow.send(.clockMoved, effects: ["call refresh_session"])
        #expect(flow.state.calls.renewalID != nil)
    }
}

/// Renewal has one owner, the engine: before a call whose token is about to expire, and
/// once after the service turns a token down.
@Suite struct SessionRenewalTests {
    static let start: Int64 = 1_800_000_000_000

    func session(expiresIn seconds: Int64, token: String = "at") -> Session {
        Session(
            userID: "u_1", accessToken: token, accessExpiresAt: Self.start / 1000 + seconds, refreshToken: "rt",
            refreshExpiresAt: nil, isAnonymous: true, createdAt: Self.start / 1000, lastAuthenticated: Self.start / 1000,
            onboardingComplete: true)
    }

    @Test func aCallWhoseTokenIsAboutToExpireWaitsForTheRenewalThenGoesWithTheNewToken() throws {
        var flow = FlowDriver("oklah", now: Self.start, exhaustive: true)
        // 30 s left, less than the flow's renew_before: Home's call waits for a renewal.
        flow.launch(session: session(expiresIn: 30), progress: .oklahHome, effects: ["save progress at home", "call refresh_session"])
        let renewed = session(expiresIn: 86_400, token: "at2")
        let sent = flow.answer(.refreshSession, .success(CallOutput(session: renewed)), effects: ["save session u_1", "call motivation"])
        #expect(FlowDriver.calls(sent).first?.session?.accessToken == "at2")
    }

    @Test func aRefusedTokenIsRenewedOnceAndTheCallSentAgain() throws {
        var flow = FlowDriver("oklah", now: Self.start, exhaustive: true)
        flow.launch(session: session(expiresIn: 3600), progress: .oklahHome, effects: ["save progress at home", "call motivation"])
        let refused = ServiceFailure(code: "unauthorized", message: "Your session is no longer valid. Please sign in again.")
        flow.answer(.motivation, .failure(refused), effects: ["call refresh_session"])
        let sent = flow.answer(.refreshSession, .success(CallOutput(session: session(expiresIn: 86_400, token: "at2"))), effects: ["save session u_1", "call motivation"])
        #expect(FlowDriver.calls(sent).first?.session?.accessToken == "at2")
        // Refused again with the new token: that is the answer (Home keeps its fallback).
        flow.answer(.motivation, .failure(refused), effects: [])
        #expect(flow.state.calls.entries.isEmpty)
    }

    @Test func aRenewalTheNetworkPreventsFailsTheCallsHeldForIt() {
        var flow = FlowDriver("oklah", now: Self.start, exhaustive: true)
        flow.launch(effects: ["track onboarding_start", "save progress at privacy"])
        flow.press("Start", effects: ["save progress at privacy", "call sign_in_anonymously"])
        flow.answer(.success(CallOutput(session: session(expiresIn: 30), values: ["name_options": .list(["A B", "C D", "E F"])])),
                    effects: ["save session u_1", "backfill analytics for u_1", "save progress at pick_name"])
        // Choosing a name needs the session, which is about to expire.
        flow.key(.activate, effects: ["call refresh_session"])
        #expect(flow.state.isBusy, "the user waits for the held call")
        flow.answer(.refreshSession, .failure(ServiceFailure(code: "network", message: "down")), effects: ["track onboarding_error"])
        #expect(flow.screen == "failed", "the held call fails as the renewal did")
        #expect(flow.state.renewal.dueAt == flow.now + FlowEngine.renewalRetryDelay)
        // While that renewal waits, Try Again sends the call as it is: no fourth try.
        flow.press("Try Again", effects: ["track onboarding_retry", "call choose_name"])
    }

    @Test func aRejectedRenewalSignsOutQuietlyAndDropsTheHeldCall() {
        var flow = FlowDriver("oklah", now: Self.start, exhaustive: true)
        flow.launch(session: session(expiresIn: 30), progress: .oklahHome, effects: ["save progress at home", "call refresh_session"])
        flow.answer(
            .refreshSession, .failure(ServiceFailure(code: "unauthorized", message: "revoked")),
            effects: ["forget session", "forget progress", "track onboarding_start", "save progress at privacy"])
        #expect(flow.screen == "privacy")
        #expect(flow.state.message == nil)
        #expect(flow.state.calls.entries.isEmpty, "the held call is gone with the session")
    }
}
