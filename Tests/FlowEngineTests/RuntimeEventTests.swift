@testable import FlowEngine
import ScreenTable
import Testing

/// What the runtime and the QA console tell the reducer: storage that failed, a moved
/// clock, a reset. Each is an event, and what follows is in the state and the effects.
@Suite struct RuntimeEventTests {
    @Test func aFileThatCannotBeWrittenIsSaidOnEveryScreenAndAfterAReset() {
        var flow = FlowDriver("oklah")
        flow.launch(
            effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: ["phase = showing", "placeholder = p", "screen = privacy", "since = now", "started = now", "starts run removed"])
        let note = "Onboard could not save its state (disk full). Your progress may not survive a restart."
        flow.send(
            .storageFailed(note), effects: [],
            changes: ["storage problems = Onboard could not save its state (disk full). Your progress may not survive a restart."])
        flow.send(.storageFailed(note), effects: [], changes: [])
        #expect(flow.engine.view(of: flow.state).warnings == [note], "said once")
        flow.press(
            "Start", effects: ["track screen_viewed", "save progress at privacy", "call sign_in_anonymously"],
            changes: [
                "call 1 = sign_in_anonymously (user's, from creating), keyed",
                "context.idempotency_key.sign_in_anonymously = p-1795348800000-1",
                "history = privacy",
                "screen = creating",
            ])
        #expect(flow.engine.view(of: flow.state).warnings == [note], "still said on the next screen")
        flow.send(
            .reset(Launch(session: nil, progress: nil, placeholderUserID: "p2")),
            effects: ["forget local data", "track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: [
                "call 1 removed",
                "context.idempotency_key.sign_in_anonymously removed",
                "history removed",
                "placeholder = p2",
                "screen = privacy",
            ])
        #expect(flow.engine.view(of: flow.state).warnings == [note], "and after a reset")
    }

    @Test func aResetForgetsTheDeviceFirstThenStartsAsAFirstLaunch() {
        var flow = FlowDriver("oklah")
        flow.launch(
            effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: ["phase = showing", "placeholder = p", "screen = privacy", "since = now", "started = now", "starts run removed"])
        flow.press(
            "Start", effects: ["track screen_viewed", "save progress at privacy", "call sign_in_anonymously"],
            changes: [
                "call 1 = sign_in_anonymously (user's, from creating), keyed",
                "context.idempotency_key.sign_in_anonymously = p-1795348800000-1",
                "history = privacy",
                "screen = creating",
            ])
        let before = flow.state.calls.userCall!.id
        let effects = flow.send(
            .reset(Launch(session: nil, progress: nil, placeholderUserID: "p2")),
            effects: ["forget local data", "track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: [
                "call 1 removed",
                "context.idempotency_key.sign_in_anonymously removed",
                "history removed",
                "placeholder = p2",
                "screen = privacy",
            ])
        #expect(effects.first == .forgetLocalData)
        #expect(flow.screen == "privacy")
        #expect(!flow.state.isBusy)
        // The answer to the call made before the reset is not taken for a new call's.
        flow.press(
            "Start", effects: ["track screen_viewed", "save progress at privacy", "call sign_in_anonymously"],
            changes: [
                "call 2 = sign_in_anonymously (user's, from creating), keyed",
                "context.idempotency_key.sign_in_anonymously = p2-1795348800000-2",
                "history = privacy",
                "screen = creating",
            ])
        let after = flow.state.calls.userCall!.id
        #expect(after != before)
        flow.send(.callFinished(id: before, result: .failure(ServiceFailure(code: "network", message: "down"))), effects: [], changes: [])
        #expect(flow.state.calls.userCall?.id == after, "the new call is still awaited")
        #expect(flow.state.message == nil)
    }

    @Test func aMovedClockRenewsAnExpiredSessionAtOnce() {
        var flow = FlowDriver("oklah")
        let session = Session.issued(at: flow.now / 1000, created: flow.now / 1000, complete: true)
        flow.launch(
            session: session, progress: .oklahHome, effects: ["track screen_viewed", "save progress at home", "call motivation"],
            changes: FlowDriver.launchedAtOKLahHome)
        #expect(flow.state.calls.renewalID == nil)
        flow.now += 3600 * 1000
        flow.send(.clockMoved, effects: ["call refresh_session"], changes: ["call 2 = refresh_session (renewal)"])
        #expect(flow.state.calls.renewalID != nil)
    }
}

/// Renewal has one owner, the engine: before a call whose token is about to expire, and
/// once after the service turns a token down.
@Suite struct SessionRenewalTests {
    static let start: Int64 = 1_800_000_000_000

    func session(expiresIn seconds: Int64, token: String = "at") -> Session {
        .issued(at: Self.start / 1000, accessFor: seconds, token: token, created: Self.start / 1000, complete: true)
    }

    @Test func aCallWhoseTokenIsAboutToExpireWaitsForTheRenewalThenGoesWithTheNewToken() throws {
        var flow = FlowDriver("oklah", now: Self.start)
        // 30 s left, less than the flow's renew_before: Home's call waits for a renewal.
        flow.launch(
            session: session(expiresIn: 30), progress: .oklahHome,
            effects: ["track screen_viewed", "save progress at home", "call refresh_session"],
            changes: [
                "call 1 = motivation (background), held",
                "call 2 = refresh_session (renewal)",
                "context.display_name = Sunny Otter",
                "onboarding = complete",
                "phase = showing",
                "placeholder = p",
                "screen = home",
                "session = u_1 guest complete",
                "since = now", "starts run removed",
            ])
        let renewed = session(expiresIn: 86_400, token: "at2")
        let sent = flow.answer(
            .refreshSession, .success(CallOutput(session: renewed)), effects: ["save session u_1", "call motivation"],
            changes: ["call 1 = motivation (background)", "call 2 removed"])
        #expect(FlowDriver.calls(sent).first?.session?.accessToken == "at2")
    }

    @Test func aRefusedTokenIsRenewedOnceAndTheCallSentAgain() throws {
        var flow = FlowDriver("oklah", now: Self.start)
        flow.launch(
            session: session(expiresIn: 3600), progress: .oklahHome,
            effects: ["track screen_viewed", "save progress at home", "call motivation"],
            changes: FlowDriver.launchedAtOKLahHome)
        let refused = ServiceFailure(code: "unauthorized", message: "Your session is no longer valid. Please sign in again.")
        flow.answer(
            .motivation, .failure(refused), effects: ["call refresh_session"],
            changes: ["call 1 = motivation (background), held, renewed for", "call 2 = refresh_session (renewal)"])
        let sent = flow.answer(
            .refreshSession, .success(CallOutput(session: session(expiresIn: 86_400, token: "at2"))),
            effects: ["save session u_1", "call motivation"],
            changes: ["call 1 = motivation (background), renewed for", "call 2 removed"])
        #expect(FlowDriver.calls(sent).first?.session?.accessToken == "at2")
        // Refused again with the new token: that is the answer (Home keeps its fallback).
        flow.answer(.motivation, .failure(refused), effects: [], changes: ["call 1 removed"])
        #expect(flow.state.calls.entries.isEmpty)
    }

    @Test func aRenewalTheNetworkPreventsFailsTheCallsHeldForIt() {
        var flow = FlowDriver("oklah", now: Self.start)
        flow.launch(
            effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: ["phase = showing", "placeholder = p", "screen = privacy", "since = now", "started = now", "starts run removed"])
        flow.press(
            "Start", effects: ["track screen_viewed", "save progress at privacy", "call sign_in_anonymously"],
            changes: [
                "call 1 = sign_in_anonymously (user's, from creating), keyed",
                "context.idempotency_key.sign_in_anonymously = p-1800000000000-1",
                "history = privacy",
                "screen = creating",
            ])
        flow.answer(
            .success(CallOutput(session: session(expiresIn: 30), values: ["name_options": .list(["A B", "C D", "E F"])])),
            effects: ["save session u_1", "backfill analytics for u_1", "track screen_viewed", "save progress at pick_name"],
            changes: [
                "call 1 removed",
                "context.idempotency_key.sign_in_anonymously removed",
                "context.name_options = [A B, C D, E F]",
                "history removed",
                "screen = pick_name",
                "session = u_1 guest", "succeeded sign_in_anonymously = now",
            ])
        // Choosing a name needs the session, which is about to expire.
        flow.key(
            .activate, effects: ["track screen_viewed", "call refresh_session"],
            changes: [
                "call 2 = choose_name (user's, from saving_name), held",
                "call 3 = refresh_session (renewal)",
                "context.chosen_name = A B",
                "edited = now",
                "history = pick_name",
                "screen = saving_name",
            ])
        #expect(flow.state.isBusy, "the user waits for the held call")
        flow.answer(
            .refreshSession, .failure(ServiceFailure(code: "network", message: "down")),
            effects: ["track onboarding_error", "track screen_viewed"],
            changes: [
                "call 2 removed",
                "call 3 removed",
                "context.error_code = network",
                "context.error_message = down",
                "last failure = saving_name",
                "renewal due = now+60s",
                "screen = failed",
            ])
        #expect(flow.screen == "failed", "the held call fails as the renewal did")
        #expect(flow.state.renewal.dueAt == flow.now + FlowEngine.renewalRetryDelay)
        // While that renewal waits, Try Again sends the call as it is: no fourth try.
        flow.press(
            "Try Again", effects: ["track onboarding_retry", "track screen_viewed", "call choose_name"],
            changes: ["call 4 = choose_name (user's, from saving_name)", "retries = 1", "screen = saving_name"])
    }

    /// A renewal put off by the network waits at most its minute, even after the clock is
    /// set back an hour (QA's Clock, a device's clock corrected).
    @Test func aClockSetBackKeepsAPutOffRenewalAMinuteAway() {
        var flow = FlowDriver("oklah", now: Self.start)
        flow.launch(
            session: session(expiresIn: 30), progress: .oklahHome,
            effects: ["track screen_viewed", "save progress at home", "call refresh_session"],
            changes: [
                "call 1 = motivation (background), held", "call 2 = refresh_session (renewal)", "context.display_name = Sunny Otter",
                "onboarding = complete", "phase = showing", "placeholder = p", "screen = home", "session = u_1 guest complete",
                "since = now", "starts run removed",
            ])
        flow.answer(
            .refreshSession, .failure(ServiceFailure(code: "network", message: "down")), effects: [],
            changes: ["call 1 removed", "call 2 removed", "renewal due = now+60s"])
        #expect(flow.state.renewal.dueAt == flow.now + FlowEngine.renewalRetryDelay)
        flow.now -= 3_600_000
        flow.send(.clockMoved, effects: [], changes: ["renewal due = now+60s"])
        flow.now += FlowEngine.renewalRetryDelay
        flow.send(.tick, effects: ["call refresh_session"], changes: ["call 3 = refresh_session (renewal)", "renewal due removed"])
    }

    @Test func aRejectedRenewalSignsOutQuietlyAndDropsTheHeldCall() {
        var flow = FlowDriver("oklah", now: Self.start)
        flow.launch(
            session: session(expiresIn: 30), progress: .oklahHome,
            effects: ["track screen_viewed", "save progress at home", "call refresh_session"],
            changes: [
                "call 1 = motivation (background), held",
                "call 2 = refresh_session (renewal)",
                "context.display_name = Sunny Otter",
                "onboarding = complete",
                "phase = showing",
                "placeholder = p",
                "screen = home",
                "session = u_1 guest complete",
                "since = now", "starts run removed",
            ])
        flow.answer(
            .refreshSession, .failure(ServiceFailure(code: "unauthorized", message: "revoked")),
            effects: ["forget session", "forget progress", "track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: [
                "call 1 removed",
                "call 2 removed",
                "context.display_name removed",
                "onboarding removed",
                "screen = privacy",
                "session removed",
                "started = now",
            ])
        #expect(flow.screen == "privacy")
        #expect(flow.state.message == nil)
        #expect(flow.state.calls.entries.isEmpty, "the held call is gone with the session")
    }
}
