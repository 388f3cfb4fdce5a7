@testable import FlowEngine
import ScreenTable
import Testing

/// Every OKLah transition through the reducer alone: events in, state and effects out.
@Suite struct OKLahReducerTests {
    let engine = FlowEngine(flow: try! BuiltinFlows.load("oklah"))
    let now: Int64 = 1_800_000_000_000
    let placeholder = "local-test"

    func session(expiresIn seconds: Int64 = 3600, complete: Bool = true) -> Session {
        Session(
            userID: "u_1", accessToken: "at", accessExpiresAt: now / 1000 + seconds, refreshToken: "rt",
            refreshExpiresAt: nil, isAnonymous: true, createdAt: now / 1000 - 100, lastAuthenticated: now / 1000 - 100,
            onboardingComplete: complete)
    }

    func launch(session: Session? = nil, progress: SavedProgress? = nil) -> (FlowState, [Effect]) {
        var state = FlowState()
        let effects = engine.reduce(&state, .launched(Launch(session: session, progress: progress, placeholderUserID: placeholder)), now: now)
        return (state, effects)
    }

    func calls(_ effects: [Effect]) -> [CallRequest] {
        effects.compactMap { if case .call(let request) = $0 { request } else { nil } }
    }

    func tracked(_ effects: [Effect]) -> [AnalyticsRecord] {
        effects.compactMap { if case .track(let record) = $0 { record } else { nil } }
    }

    func signedIn() -> CallOutput {
        CallOutput(session: session(expiresIn: 86_400, complete: false), values: ["user_id": .text("u_1"), "name_options": .list(["Sunny Otter", "Brave Spark", "Kind Meadow"])])
    }

    /// First launch, Start, account created: the pick-name screen with three names.
    func atPickName() -> FlowState {
        var (state, _) = launch()
        _ = engine.reduce(&state, .intent(.activate), now: now)
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(signedIn())), now: now + 500)
        return state
    }

    @Test func firstLaunchShowsThePrivacyGateAndMakesNoCall() {
        let (state, effects) = launch()
        #expect(state.screenID == "privacy")
        #expect(calls(effects).isEmpty)
        #expect(tracked(effects).map(\.name) == ["onboarding_start"])
        #expect(tracked(effects).first?.userID == placeholder)
        #expect(state.startedAt == now)
    }

    @Test func onlyStartLeavesThePrivacyScreen() {
        var (state, _) = launch()
        for intent in [Intent.back, .focusNext, .left, .right, .insert("x"), .deleteBackward] {
            let effects = engine.reduce(&state, .intent(intent), now: now)
            #expect(state.screenID == "privacy")
            #expect(calls(effects).isEmpty)
        }
    }

    @Test func startCreatesTheAccountOnceEvenWhenPressedTwice() {
        var (state, _) = launch()
        let first = engine.reduce(&state, .intent(.activate), now: now)
        #expect(state.screenID == "creating")
        #expect(calls(first).map(\.operation) == [.signInAnonymously])
        let second = engine.reduce(&state, .intent(.activate), now: now + 10)
        #expect(calls(second).isEmpty)
    }

    @Test func accountCreatedLeadsToPickingOneOfThreeNames() {
        var (state, _) = launch()
        _ = engine.reduce(&state, .intent(.activate), now: now)
        let effects = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(signedIn())), now: now + 500)
        #expect(state.screenID == "pick_name")
        #expect(state.context["name_options"] == .list(["Sunny Otter", "Brave Spark", "Kind Meadow"]))
        #expect(effects.contains(.saveSession(state.session)))
        #expect(effects.contains(.backfillAnalytics(placeholder: placeholder, userID: "u_1")))
        // The pick is a resume point: killed here, the next launch returns here.
        #expect(effects.contains { if case .saveProgress(let progress?) = $0 { progress.screen == "pick_name" } else { false } })
    }

    @Test func pickingANameFinalisesTheProfileAndCompletesOnboarding() {
        var state = atPickName()
        _ = engine.reduce(&state, .intent(.focusNext), now: now + 600)
        let picked = engine.reduce(&state, .intent(.activate), now: now + 700)
        #expect(state.screenID == "saving_name")
        #expect(calls(picked).first?.inputs == ["chosen_name": "Brave Spark"])
        let done = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(CallOutput(values: ["display_name": .text("Brave Spark")]))), now: now + 900)
        #expect(state.screenID == "home")
        #expect(state.onboardingComplete)
        let complete = tracked(done).first { $0.name == "onboarding_complete" }
        #expect(complete?.properties["duration_ms"] == .number(900))
        #expect(complete?.userID == "u_1")
        #expect(calls(done).map(\.operation) == [.motivation])
        #expect(done.contains { if case .saveSession(let session?) = $0 { session.onboardingComplete } else { false } })
    }

    @Test func homeShowsTheMotivationWhenItArrives() {
        var (state, effects) = launch(session: session())
        #expect(state.screenID == "home")
        let id = calls(effects).first!.id
        _ = engine.reduce(&state, .callFinished(id: id, result: .success(CallOutput(values: ["motivation": .text("Rest is productive too.")]))), now: now)
        #expect(Placeholders.fill(engine.flow.screen("home")!.body, from: state.context) == "Rest is productive too.")
    }

    @Test func homeKeepsAFallbackMessageWhenMotivationFails() {
        var (state, effects) = launch(session: session())
        let id = calls(effects).first!.id
        _ = engine.reduce(&state, .callFinished(id: id, result: .failure(ServiceFailure(code: "network", message: "down"))), now: now)
        #expect(state.screenID == "home")
        #expect(state.message == nil)
        #expect(Placeholders.fill(engine.flow.screen("home")!.body, from: state.context) == "Every small step counts. You are doing great.")
    }

    @Test func checkInSaysItIsOutOfScope() {
        var (state, _) = launch(session: session())
        _ = engine.reduce(&state, .intent(.activate), now: now)
        guard case .notice(let text)? = state.message else { Issue.record("no notice"); return }
        #expect(text.contains("not part of onboarding"))
    }

    @Test(arguments: ["network", "server_error", "rate_limited"])
    func anyFailureShowsTheRetryableErrorAndTracksIt(code: String) {
        var (state, _) = launch()
        _ = engine.reduce(&state, .intent(.activate), now: now)
        let effects = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .failure(ServiceFailure(code: code, message: "x"))), now: now + 100)
        #expect(state.screenID == "failed")
        #expect(engine.flow.screen("failed")!.body == "Something went wrong. Please check your connection and try again.")
        let expected = code == "network" ? "ERR-ONB-001" : "ERR-ONB-002"
        #expect(tracked(effects).map(\.name) == ["onboarding_error"])
        #expect(tracked(effects).first?.properties["error_code"] == .text(expected))
        // The error screen is not a resume point.
        #expect(!effects.contains { if case .saveProgress = $0 { true } else { false } })
    }

    /// A lost reply must not make a second guest: every retry of Start — Try Again, a
    /// relaunch — carries the key saved before the first call left.
    @Test func everyRetryOfStartCarriesTheSameIdempotencyKey() throws {
        var (state, _) = launch()
        let started = engine.reduce(&state, .intent(.activate), now: now)
        let key = try #require(calls(started).first?.idempotencyKey)
        let saved = started.compactMap { if case .saveProgress(let progress?) = $0 { progress } else { nil } }.last
        #expect(saved?.screen == "privacy")
        #expect(saved.map { $0.context.values.contains { $0.text.map(key.hasPrefix) == true } } == true, "kept on disk before the call")

        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .failure(ServiceFailure(code: "timeout", message: "x"))), now: now)
        let retried = engine.reduce(&state, .intent(.activate), now: now + 5000)
        #expect(calls(retried).first?.idempotencyKey == key)

        // Killed now: the relaunch resumes on the privacy screen with the same key.
        var relaunched = FlowState()
        _ = engine.reduce(&relaunched, .launched(Launch(session: nil, progress: saved, placeholderUserID: "other")), now: now + 60_000)
        let afterRelaunch = engine.reduce(&relaunched, .intent(.activate), now: now + 61_000)
        #expect(calls(afterRelaunch).first?.idempotencyKey == key)

        // Success ends the intent: the next sign-in (after a sign-out) gets a new key.
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(signedIn())), now: now + 6000)
        #expect(!state.context.keys.contains { $0.hasPrefix("idempotency_key.") })
        #expect(calls(engine.reduce(&state, .intent(.activate), now: now)).allSatisfy { $0.idempotencyKey == nil }, "choosing a name needs none")
    }

    @Test func tryAgainRetriesTheCallAndCountsAttempts() {
        var (state, _) = launch()
        _ = engine.reduce(&state, .intent(.activate), now: now)
        for attempt in 1...2 {
            _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .failure(ServiceFailure(code: "network", message: "x"))), now: now)
            let effects = engine.reduce(&state, .intent(.activate), now: now)
            #expect(state.screenID == "creating")
            #expect(calls(effects).map(\.operation) == [.signInAnonymously])
            #expect(tracked(effects).first { $0.name == "onboarding_retry" }?.properties["attempt_number"] == .number(Int64(attempt)))
        }
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(signedIn())), now: now)
        #expect(state.screenID == "pick_name")
        #expect(state.context["error_message"] == nil && state.context["error_code"] == nil, "no leftovers in the progress")
    }

    @Test func aFailedNameChoiceRetriesTheNameNotTheAccount() {
        var state = atPickName()
        _ = engine.reduce(&state, .intent(.activate), now: now)
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .failure(ServiceFailure(code: "server_error", message: "x"))), now: now)
        #expect(state.screenID == "failed")
        let effects = engine.reduce(&state, .intent(.activate), now: now)
        #expect(calls(effects).map(\.operation) == [.chooseName])
    }

    @Test func relaunchWithACompletedSessionGoesStraightHome() {
        let (state, effects) = launch(session: session())
        #expect(state.screenID == "home")
        #expect(!tracked(effects).contains { $0.name == "onboarding_start" })
    }

    @Test func aValidSessionWithoutTheFlagAlsoGoesHome() {
        let (state, _) = launch(session: session(complete: false))
        #expect(state.screenID == "home")
        #expect(state.onboardingComplete)
    }

    @Test func killedOnThePickScreenResumesThereWithTheSameNames() {
        let picked = atPickName()
        let progress = SavedProgress(screen: "pick_name", context: picked.context, onboardingComplete: false, startedAt: now, placeholderUserID: placeholder, requiresSession: true)
        let (state, effects) = launch(session: picked.session, progress: progress)
        #expect(state.screenID == "pick_name")
        #expect(state.context["name_options"] == picked.context["name_options"])
        #expect(calls(effects).isEmpty)
    }

    @Test func killedDuringCreationShowsOnboardingAgain() {
        // Creation never finished: no session, and the last resume point was the privacy screen.
        let progress = SavedProgress(screen: "privacy", context: [:], onboardingComplete: false, startedAt: now - 5000, placeholderUserID: placeholder, requiresSession: false)
        let (state, _) = launch(progress: progress)
        #expect(state.screenID == "privacy")
    }

    @Test func anExpiredSessionIsRenewedSilentlyThenHome() {
        var (state, effects) = launch(session: session(expiresIn: -10))
        #expect(state.screenID == nil)
        #expect(state.phase == .renewing(attempt: 1))
        #expect(calls(effects).map(\.operation) == [.refreshSession])
        var renewed = session(expiresIn: 86_400)
        renewed.accessToken = "at2"
        let after = engine.reduce(&state, .callFinished(id: state.calls.renewalID!, result: .success(CallOutput(session: renewed))), now: now)
        #expect(state.screenID == "home")
        #expect(state.session?.accessToken == "at2")
        #expect(state.session?.userID == "u_1")
        #expect(after.contains { if case .saveSession(let saved?) = $0 { saved.accessToken == "at2" } else { false } })
    }

    @Test func renewalIsTriedThreeTimesThenTheSessionIsKeptAndHomeShown() {
        var (state, _) = launch(session: session(expiresIn: -10))
        var last: [Effect] = []
        for attempt in 1...3 {
            #expect(state.phase == .renewing(attempt: attempt))
            last = engine.reduce(&state, .callFinished(id: state.calls.renewalID!, result: .failure(ServiceFailure(code: "network", message: "down"))), now: now)
        }
        #expect(state.screenID == "home")
        // Home's own calls must not renew on their way out: that would be a fourth try.
        #expect(!calls(last).isEmpty && calls(last).allSatisfy { !$0.mayRenewSession })
        #expect(state.session?.userID == "u_1")
        #expect(state.renewal.dueAt == now + FlowEngine.renewalRetryDelay)
        // Later, the renewal is tried again.
        let later = engine.reduce(&state, .tick, now: now + FlowEngine.renewalRetryDelay)
        #expect(calls(later).map(\.operation) == [.refreshSession])
    }

    @Test func aRejectedSessionFallsBackToPrivacyWithNoError() {
        var (state, _) = launch(session: session(expiresIn: -10))
        let effects = engine.reduce(&state, .callFinished(id: state.calls.renewalID!, result: .failure(ServiceFailure(code: "unauthorized", message: "revoked"))), now: now)
        #expect(state.screenID == "privacy")
        #expect(state.message == nil)
        #expect(state.session == nil)
        #expect(effects.contains(.saveSession(nil)))
        // Start makes a new account.
        let start = engine.reduce(&state, .intent(.activate), now: now)
        #expect(calls(start).map(\.operation) == [.signInAnonymously])
    }

    @Test func suspendedDuringCreationRetriesSilentlyOnceThenShowsTheError() {
        var (state, _) = launch()
        _ = engine.reduce(&state, .intent(.activate), now: now)
        let original = state.calls.userCall!.id
        let resumed = engine.reduce(&state, .resumed, now: now + 5000)
        let retry = calls(resumed).first!
        #expect(retry.operation == .signInAnonymously)
        #expect(state.screenID == "creating")
        // A second suspend does not retry again.
        #expect(calls(engine.reduce(&state, .resumed, now: now + 6000)).isEmpty)
        // The original failing does not show the error while the retry runs.
        _ = engine.reduce(&state, .callFinished(id: original, result: .failure(ServiceFailure(code: "network", message: "x"))), now: now)
        #expect(state.screenID == "creating")
        _ = engine.reduce(&state, .callFinished(id: retry.id, result: .failure(ServiceFailure(code: "network", message: "x"))), now: now)
        #expect(state.screenID == "failed")
    }

    @Test func aSuspendAfterCreationFinishedDoesNothing() {
        var state = atPickName()
        let effects = engine.reduce(&state, .resumed, now: now)
        #expect(effects.isEmpty)
        #expect(state.screenID == "pick_name")
    }

    @Test func quitEndsTheFlowFromAnyScreenEvenWhileBusy() {
        var (state, _) = launch()
        _ = engine.reduce(&state, .intent(.activate), now: now)
        let effects = engine.reduce(&state, .intent(.quit), now: now)
        #expect(effects == [.quit])
        #expect(state.phase == .finished)
    }
}
