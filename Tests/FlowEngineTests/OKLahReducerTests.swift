@testable import FlowEngine
import ScreenTable
import Testing

/// Every OKLah transition through the reducer alone, as stories: each step says what it
/// does, and the driver fails on anything it does besides.
@Suite struct OKLahReducerTests {
    static let start: Int64 = 1_800_000_000_000

    func story() -> FlowDriver {
        FlowDriver("oklah", now: Self.start)
    }

    func session(expiresIn seconds: Int64 = 3600, complete: Bool = true) -> Session {
        .issued(at: Self.start / 1000, accessFor: seconds, created: Self.start / 1000 - 100, complete: complete)
    }

    var signedIn: CallOutput {
        CallOutput(
            session: session(expiresIn: 86_400, complete: false),
            values: ["user_id": .text("u_1"), "name_options": .list(["Sunny Otter", "Brave Spark", "Kind Meadow"])])
    }

    let networkDown = ServiceFailure(code: "network", message: "down")

    /// Issue 47: the first screen event of a run says it starts one (a funnel then never
    /// counts the time between two launches as time on a screen); the next ones do not.
    @Test func theFirstArrivalOfARunSaysSo() {
        var flow = story()
        let (launched, pressed) = launchAndStart(&flow)
        func arrival(_ effects: [Effect]) -> AnalyticsRecord? {
            effects.lazy.compactMap { if case .track(let record) = $0, record.name == "screen_viewed" { record } else { nil } }.first
        }
        #expect(arrival(launched)?.properties["starts_run"] == .number(1))
        #expect(arrival(pressed).map { $0.properties["starts_run"] == nil } == true)
    }

    /// First launch, then Start: the launch's and the press's effects.
    @discardableResult
    func launchAndStart(_ flow: inout FlowDriver) -> (launched: [Effect], pressed: [Effect]) {
        let launched = flow.launch(
            effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: ["phase = showing", "placeholder = p", "screen = privacy", "since = now", "started = now", "starts run removed"])
        let pressed = flow.press(
            "Start", effects: ["track screen_viewed", "save progress at privacy", "call sign_in_anonymously"],
            changes: [
                "call 1 = sign_in_anonymously (user's, from creating), keyed",
                "context.idempotency_key.sign_in_anonymously = p-1800000000000-1",
                "history = privacy",
                "screen = creating",
            ])
        return (launched, pressed)
    }

    /// First launch, Start, account created: the pick-name screen with three names.
    func atPickName() -> FlowDriver {
        var flow = story()
        launchAndStart(&flow)
        flow.now += 500
        flow.answer(
            .success(signedIn),
            effects: ["save session u_1", "backfill analytics for u_1", "track screen_viewed", "save progress at pick_name"],
            changes: [
                "call 1 removed",
                "context.idempotency_key.sign_in_anonymously removed",
                "context.name_options = [Sunny Otter, Brave Spark, Kind Meadow]",
                "context.user_id = u_1",
                "history removed",
                "screen = pick_name",
                "session = u_1 guest",
                "since = now", "succeeded sign_in_anonymously = now",
            ])
        return flow
    }

    @Test func firstLaunchShowsThePrivacyGateAndMakesNoCall() {
        var flow = story()
        let effects = flow.launch(
            placeholder: "local-test", effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: [
                "phase = showing", "placeholder = local-test", "screen = privacy", "since = now", "started = now", "starts run removed",
            ])
        #expect(flow.screen == "privacy")
        #expect(FlowDriver.tracked(effects).first?.userID == "local-test", "under the placeholder until a session names the user")
        #expect(flow.state.startedAt == flow.now)
    }

    @Test func onlyStartLeavesThePrivacyScreen() {
        var flow = story()
        flow.launch(
            effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: ["phase = showing", "placeholder = p", "screen = privacy", "since = now", "started = now", "starts run removed"])
        for intent in [Intent.back, .focusNext, .left, .right, .insert("x"), .deleteBackward] {
            flow.key(intent, effects: [], changes: [])
            #expect(flow.screen == "privacy")
        }
    }

    @Test func startCreatesTheAccountOnceEvenWhenPressedTwice() {
        var flow = story()
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
        #expect(flow.screen == "creating")
        flow.now += 10
        flow.key(.activate, effects: [], changes: [])
    }

    @Test func accountCreatedLeadsToPickingOneOfThreeNames() {
        let flow = atPickName()
        #expect(flow.screen == "pick_name")
        #expect(flow.state.context["name_options"] == .list(["Sunny Otter", "Brave Spark", "Kind Meadow"]))
        // The pick is a resume point: killed here, the next launch returns here.
        #expect(flow.savedProgress?.screen == "pick_name")
    }

    @Test func pickingANameFinalisesTheProfileAndCompletesOnboarding() throws {
        var flow = atPickName()
        flow.now += 100
        flow.key(.focusNext, effects: [], changes: ["focus = 1"])
        let picked = flow.key(
            .activate, effects: ["track screen_viewed", "call choose_name"],
            changes: [
                "call 2 = choose_name (user's, from saving_name)",
                "context.chosen_name = Brave Spark",
                "edited = now",
                "focus = 0",
                "history = pick_name",
                "screen = saving_name",
                "since = now",
            ])
        #expect(flow.screen == "saving_name")
        #expect(FlowDriver.calls(picked).first?.inputs == ["chosen_name": "Brave Spark"])
        flow.now += 300
        let done = flow.answer(
            .success(CallOutput(values: ["display_name": .text("Brave Spark")])),
            effects: ["track screen_viewed", "save session u_1", "track onboarding_complete", "save progress at home", "call motivation"],
            changes: [
                "call 2 removed",
                "call 3 = motivation (background)",
                "context.display_name = Brave Spark",
                "edited removed",
                "onboarding = complete",
                "screen = home",
                "session = u_1 guest complete",
                "since = now", "succeeded choose_name = now",
            ])
        #expect(flow.screen == "home")
        #expect(flow.state.onboardingComplete)
        let complete = try #require(FlowDriver.tracked(done).first { $0.name == "onboarding_complete" })
        #expect(complete.properties["duration_ms"] == .number(900))
        #expect(complete.userID == "u_1")
        #expect(flow.state.session?.onboardingComplete == true, "and saved so")
    }

    @Test func homeShowsTheMotivationWhenItArrives() {
        var flow = story()
        flow.launch(
            session: session(), progress: .oklahHome, effects: ["track screen_viewed", "save progress at home", "call motivation"],
            changes: FlowDriver.launchedAtOKLahHome)
        #expect(flow.screen == "home")
        flow.answer(
            .motivation, .success(CallOutput(values: ["motivation": .text("Rest is productive too.")])), effects: ["save progress at home"],
            changes: ["call 1 removed", "context.motivation = Rest is productive too."])
        #expect(flow.shown.body == "Rest is productive too.")
    }

    @Test func homeKeepsAFallbackMessageWhenMotivationFails() {
        var flow = story()
        flow.launch(
            session: session(), progress: .oklahHome, effects: ["track screen_viewed", "save progress at home", "call motivation"],
            changes: FlowDriver.launchedAtOKLahHome)
        flow.answer(.motivation, .failure(networkDown), effects: [], changes: ["call 1 removed"])
        #expect(flow.screen == "home")
        #expect(flow.state.message == nil)
        #expect(flow.shown.body == "Every small step counts. You are doing great.")
    }

    @Test func checkInSaysItIsOutOfScope() {
        var flow = story()
        flow.launch(
            session: session(), progress: .oklahHome, effects: ["track screen_viewed", "save progress at home", "call motivation"],
            changes: FlowDriver.launchedAtOKLahHome)
        flow.press(
            "Check in", effects: [],
            changes: ["message = notice: Check-in is coming in a later release; it is not part of onboarding."])
        guard case .notice(let text)? = flow.state.message else { Issue.record("no notice"); return }
        #expect(text.contains("not part of onboarding"))
    }

    @Test(arguments: ["network", "server_error", "rate_limited"])
    func anyFailureShowsTheRetryableErrorAndTracksIt(code: String) {
        var flow = story()
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
        flow.now += 100
        // The error screen is not a resume point: the privacy screen stays the last one.
        let effects = flow.fail(
            code, "x", effects: ["track onboarding_error", "track screen_viewed"],
            changes: [
                "call 1 removed", "context.error_code = \(code)", "context.error_message = x", "last failure = creating", "screen = failed",
                "since = now",
            ])
        #expect(flow.screen == "failed")
        #expect(flow.shown.body == "Something went wrong. Please check your connection and try again.")
        let expected = code == "network" ? "ERR-ONB-001" : "ERR-ONB-002"
        #expect(FlowDriver.tracked(effects).first?.properties["error_code"] == .text(expected))
    }

    /// A lost reply must not make a second guest: every retry of Start — Try Again, a
    /// relaunch — carries the key saved before the first call left.
    @Test func everyRetryOfStartCarriesTheSameIdempotencyKey() throws {
        var flow = story()
        flow.launch(
            effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: ["phase = showing", "placeholder = p", "screen = privacy", "since = now", "started = now", "starts run removed"])
        let started = flow.press(
            "Start", effects: ["track screen_viewed", "save progress at privacy", "call sign_in_anonymously"],
            changes: [
                "call 1 = sign_in_anonymously (user's, from creating), keyed",
                "context.idempotency_key.sign_in_anonymously = p-1800000000000-1",
                "history = privacy",
                "screen = creating",
            ])
        let key = try #require(FlowDriver.calls(started).first?.idempotencyKey)
        let saved = try #require(flow.savedProgress)
        #expect(saved.screen == "privacy")
        #expect(saved.context.values.contains { $0.text.map(key.hasPrefix) == true }, "kept on disk before the call")

        flow.fail(
            "timeout", "x", effects: ["track onboarding_error", "track screen_viewed"],
            changes: [
                "call 1 removed",
                "context.error_code = timeout",
                "context.error_message = x",
                "last failure = creating",
                "screen = failed",
            ])
        flow.now += 5000
        let retried = flow.press(
            "Try Again", effects: ["track onboarding_retry", "track screen_viewed", "call sign_in_anonymously"],
            changes: ["call 2 = sign_in_anonymously (user's, from creating), keyed", "retries = 1", "screen = creating", "since = now"])
        #expect(FlowDriver.calls(retried).first?.idempotencyKey == key)

        // Killed now: the relaunch resumes on the privacy screen with the same key.
        var relaunched = story()
        relaunched.now += 60_000
        relaunched.launch(
            progress: saved, placeholder: "other", effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: [
                "context.idempotency_key.sign_in_anonymously = p-1800000000000-1",
                "phase = showing",
                "placeholder = p",
                "screen = privacy",
                "since = now",
                "started = now-60s", "starts run removed",
            ])
        // The key is already on disk: nothing to save before the call this time.
        let afterRelaunch = relaunched.press(
            "Start", effects: ["track screen_viewed", "call sign_in_anonymously"],
            changes: ["call 1 = sign_in_anonymously (user's, from creating), keyed", "history = privacy", "screen = creating"])
        #expect(FlowDriver.calls(afterRelaunch).first?.idempotencyKey == key)

        // Success ends the intent: no key is left for the next sign-in.
        flow.answer(
            .success(signedIn),
            effects: ["save session u_1", "backfill analytics for u_1", "track screen_viewed", "save progress at pick_name"],
            changes: [
                "call 2 removed",
                "context.error_code removed",
                "context.error_message removed",
                "context.idempotency_key.sign_in_anonymously removed",
                "context.name_options = [Sunny Otter, Brave Spark, Kind Meadow]",
                "context.user_id = u_1",
                "history removed",
                "screen = pick_name",
                "session = u_1 guest", "succeeded sign_in_anonymously = now",
            ])
        #expect(!flow.state.context.keys.contains { $0.hasPrefix("idempotency_key.") })
        let named = flow.key(
            .activate, effects: ["track screen_viewed", "call choose_name"],
            changes: [
                "call 3 = choose_name (user's, from saving_name)",
                "context.chosen_name = Sunny Otter",
                "edited = now",
                "history = pick_name",
                "screen = saving_name",
            ])
        #expect(FlowDriver.calls(named).allSatisfy { $0.idempotencyKey == nil }, "choosing a name needs none")
    }

    @Test func tryAgainRetriesTheCallAndCountsAttempts() {
        var flow = story()
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
        for attempt in 1...2 {
            flow.fail(
                "network", "x", effects: ["track onboarding_error", "track screen_viewed"],
                changes: ["call \(attempt) removed"]
                    + (attempt == 1
                        ? ["context.error_code = network", "context.error_message = x", "last failure = creating", "screen = failed"]
                        : ["screen = failed"]))
            let effects = flow.press(
                "Try Again", effects: ["track onboarding_retry", "track screen_viewed", "call sign_in_anonymously"],
                changes: [
                    "call \(attempt + 1) = sign_in_anonymously (user's, from creating), keyed", "retries = \(attempt)", "screen = creating",
                ])
            #expect(flow.screen == "creating")
            #expect(FlowDriver.tracked(effects).first?.properties["attempt_number"] == .number(Int64(attempt)))
        }
        flow.answer(
            .success(signedIn),
            effects: ["save session u_1", "backfill analytics for u_1", "track screen_viewed", "save progress at pick_name"],
            changes: [
                "call 3 removed",
                "context.error_code removed",
                "context.error_message removed",
                "context.idempotency_key.sign_in_anonymously removed",
                "context.name_options = [Sunny Otter, Brave Spark, Kind Meadow]",
                "context.user_id = u_1",
                "history removed",
                "screen = pick_name",
                "session = u_1 guest", "succeeded sign_in_anonymously = now",
            ])
        #expect(flow.screen == "pick_name")
        #expect(flow.state.context["error_message"] == nil && flow.state.context["error_code"] == nil, "no leftovers in the progress")
    }

    @Test func aFailedNameChoiceRetriesTheNameNotTheAccount() {
        var flow = atPickName()
        flow.key(
            .activate, effects: ["track screen_viewed", "call choose_name"],
            changes: [
                "call 2 = choose_name (user's, from saving_name)",
                "context.chosen_name = Sunny Otter",
                "edited = now",
                "history = pick_name",
                "screen = saving_name",
            ])
        flow.fail(
            "server_error", "x", effects: ["track onboarding_error", "track screen_viewed"],
            changes: [
                "call 2 removed",
                "context.error_code = server_error",
                "context.error_message = x",
                "last failure = saving_name",
                "screen = failed",
            ])
        #expect(flow.screen == "failed")
        flow.press(
            "Try Again", effects: ["track onboarding_retry", "track screen_viewed", "call choose_name"],
            changes: ["call 3 = choose_name (user's, from saving_name)", "retries = 1", "screen = saving_name"])
    }

    @Test func relaunchWithACompletedSessionGoesStraightHome() {
        var flow = story()
        flow.launch(
            session: session(), progress: .oklahHome, effects: ["track screen_viewed", "save progress at home", "call motivation"],
            changes: FlowDriver.launchedAtOKLahHome)
        #expect(flow.screen == "home", "and no onboarding_start")
    }

    /// Issue 30 §3: signed in with its progress lost (a data key gone, a damaged file),
    /// OKLah said "Hi, friend" with no name chosen. The service says where the person
    /// stands: the name chosen, or the names it offered.
    @Test func aSessionWithoutItsProgressAsksTheServiceForTheName() {
        var flow = story()
        flow.launch(
            session: session(complete: false), effects: ["track screen_viewed", "call load_profile"],
            changes: [
                "call 1 = load_profile (user's, from checking_name)",
                "phase = showing",
                "placeholder = p",
                "screen = checking_name",
                "session = u_1 guest",
                "since = now", "starts run removed",
            ])
        #expect(flow.screen == "checking_name")
        // Home completes onboarding: the session is saved with the flag, once.
        flow.answer(
            .loadProfile, .success(CallOutput(values: ["display_name": .text("Sunny Otter")])),
            effects: ["track screen_viewed", "save session u_1", "track onboarding_complete", "save progress at home", "call motivation"],
            changes: [
                "call 1 removed",
                "call 2 = motivation (background)",
                "context.display_name = Sunny Otter",
                "onboarding = complete",
                "screen = home",
                "session = u_1 guest complete", "succeeded load_profile = now",
            ])
        #expect(flow.screen == "home")
        #expect(flow.shown.title == "Hi, Sunny Otter")
        #expect(flow.state.onboardingComplete)

        var unnamed = story()
        unnamed.launch(
            session: session(complete: false), effects: ["track screen_viewed", "call load_profile"],
            changes: [
                "call 1 = load_profile (user's, from checking_name)",
                "phase = showing",
                "placeholder = p",
                "screen = checking_name",
                "session = u_1 guest",
                "since = now", "starts run removed",
            ])
        let offered: [String] = ["Sunny Otter", "Brave Spark", "Kind Meadow"]
        unnamed.answer(
            .loadProfile, .success(CallOutput(values: ["name_options": .list(offered)])),
            effects: ["track screen_viewed", "save progress at pick_name"],
            changes: [
                "call 1 removed", "context.name_options = [Sunny Otter, Brave Spark, Kind Meadow]", "screen = pick_name",
                "succeeded load_profile = now",
            ])
        #expect(unnamed.screen == "pick_name", "the same names offered again")
        #expect(unnamed.state.context["name_options"] == .list(offered))

        var offline = story()
        offline.launch(
            session: session(), effects: ["track screen_viewed", "call load_profile"],
            changes: [
                "call 1 = load_profile (user's, from checking_name)",
                "onboarding = complete",
                "phase = showing",
                "placeholder = p",
                "screen = checking_name",
                "session = u_1 guest complete",
                "since = now", "starts run removed",
            ])
        offline.answer(
            .loadProfile, .failure(networkDown), effects: ["track onboarding_error", "track screen_viewed"],
            changes: [
                "call 1 removed",
                "context.error_code = network",
                "context.error_message = down",
                "last failure = checking_name",
                "screen = failed",
            ])
        #expect(offline.screen == "failed")
        #expect(!offline.shown.title.contains("Hi,"))
    }

    @Test func killedOnThePickScreenResumesThereWithTheSameNames() throws {
        let picked = atPickName()
        var flow = story()
        flow.launch(
            session: picked.state.session, progress: picked.savedProgress, effects: ["track screen_viewed", "save progress at pick_name"],
            changes: [
                "context.name_options = [Sunny Otter, Brave Spark, Kind Meadow]",
                "context.user_id = u_1",
                "phase = showing",
                "placeholder = p",
                "screen = pick_name",
                "session = u_1 guest",
                "since = now",
                "started = now", "starts run removed",
            ])
        #expect(flow.screen == "pick_name")
        #expect(flow.state.context["name_options"] == picked.state.context["name_options"])
    }

    @Test func killedDuringCreationShowsOnboardingAgain() {
        // Creation never finished: no session, and the last resume point was the privacy screen.
        let progress = SavedProgress(
            screen: "privacy", context: [:], onboardingComplete: false, startedAt: Self.start - 5000, placeholderUserID: "p",
            requiresSession: false)
        var flow = story()
        flow.launch(
            progress: progress, effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: ["phase = showing", "placeholder = p", "screen = privacy", "since = now", "started = now-5s", "starts run removed"])
        #expect(flow.screen == "privacy")
    }

    @Test func anExpiredSessionIsRenewedSilentlyThenHome() {
        var flow = story()
        flow.launch(
            session: session(expiresIn: -10), progress: .oklahHome, effects: ["call refresh_session"],
            changes: [
                "call 1 = refresh_session (renewal)",
                "context.display_name = Sunny Otter",
                "onboarding = complete",
                "phase = renewing(attempt: 1)",
                "placeholder = p",
                "renewal held progress = home",
                "session = u_1 guest complete",
            ])
        #expect(flow.screen == nil)
        #expect(flow.state.phase == .renewing(attempt: 1))
        var renewed = session(expiresIn: 86_400)
        renewed.accessToken = "at2"
        flow.answer(
            .refreshSession, .success(CallOutput(session: renewed)),
            effects: ["save session u_1", "track screen_viewed", "save progress at home", "call motivation"],
            changes: [
                "call 1 removed",
                "call 2 = motivation (background)",
                "phase = showing",
                "renewal held progress removed",
                "screen = home",
                "since = now", "starts run removed",
            ])
        #expect(flow.screen == "home")
        #expect(flow.state.session?.accessToken == "at2")
        #expect(flow.state.session?.userID == "u_1")
    }

    @Test func renewalIsTriedThreeTimesThenTheSessionIsKeptAndHomeShown() {
        var flow = story()
        flow.launch(
            session: session(expiresIn: -10), progress: .oklahHome, effects: ["call refresh_session"],
            changes: [
                "call 1 = refresh_session (renewal)",
                "context.display_name = Sunny Otter",
                "onboarding = complete",
                "phase = renewing(attempt: 1)",
                "placeholder = p",
                "renewal held progress = home",
                "session = u_1 guest complete",
            ])
        for attempt in 1...2 {
            #expect(flow.state.phase == .renewing(attempt: attempt))
            flow.answer(
                .refreshSession, .failure(networkDown), effects: ["call refresh_session"],
                changes: [
                    "call \(attempt) removed", "call \(attempt + 1) = refresh_session (renewal)",
                    "phase = renewing(attempt: \(attempt + 1))",
                ])
        }
        // Home's own call goes as it is, not held for a fourth try.
        flow.answer(
            .refreshSession, .failure(networkDown), effects: ["track screen_viewed", "save progress at home", "call motivation"],
            changes: [
                "call 3 removed",
                "call 4 = motivation (background)",
                "phase = showing",
                "renewal due = now+60s",
                "renewal held progress removed",
                "screen = home",
                "since = now", "starts run removed",
            ])
        #expect(flow.screen == "home")
        #expect(flow.state.session?.userID == "u_1")
        #expect(flow.state.renewal.dueAt == flow.now + FlowEngine.renewalRetryDelay)
        // Later, the renewal is tried again.
        flow.now += FlowEngine.renewalRetryDelay
        flow.send(.tick, effects: ["call refresh_session"], changes: ["call 5 = refresh_session (renewal)", "renewal due removed"])
    }

    @Test func aRejectedSessionFallsBackToPrivacyWithNoError() {
        var flow = story()
        flow.launch(
            session: session(expiresIn: -10), progress: .oklahHome, effects: ["call refresh_session"],
            changes: [
                "call 1 = refresh_session (renewal)",
                "context.display_name = Sunny Otter",
                "onboarding = complete",
                "phase = renewing(attempt: 1)",
                "placeholder = p",
                "renewal held progress = home",
                "session = u_1 guest complete",
            ])
        flow.answer(
            .refreshSession, .failure(ServiceFailure(code: "unauthorized", message: "revoked")),
            effects: ["forget session", "forget progress", "track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: [
                "call 1 removed",
                "context.display_name removed",
                "onboarding removed",
                "phase = showing",
                "renewal held progress removed",
                "screen = privacy",
                "session removed",
                "since = now",
                "started = now", "starts run removed",
            ])
        #expect(flow.screen == "privacy")
        #expect(flow.state.message == nil)
        #expect(flow.state.session == nil)
        // Start makes a new account.
        flow.press(
            "Start", effects: ["track screen_viewed", "save progress at privacy", "call sign_in_anonymously"],
            changes: [
                "call 2 = sign_in_anonymously (user's, from creating), keyed",
                "context.idempotency_key.sign_in_anonymously = p-1800000000000-2",
                "history = privacy",
                "screen = creating",
            ])
    }

    @Test func suspendedDuringCreationRetriesSilentlyOnceThenShowsTheError() throws {
        var flow = story()
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
        let original = try #require(flow.state.calls.userCall?.id)
        flow.now += 5000
        let resumed = flow.send(
            .resumed, effects: ["call sign_in_anonymously"],
            changes: [
                "call 1 = sign_in_anonymously (replaced by 2), keyed",
                "call 2 = sign_in_anonymously (user's, from creating), keyed",
                "silent retry used = yes",
            ])
        let retry = try #require(FlowDriver.calls(resumed).first)
        #expect(flow.screen == "creating")
        // A second suspend does not retry again.
        flow.send(.resumed, effects: [], changes: [])
        // The original failing does not show the error while the retry runs.
        flow.send(.callFinished(id: original, result: .failure(networkDown)), effects: [], changes: ["call 1 removed"])
        #expect(flow.screen == "creating")
        flow.send(
            .callFinished(id: retry.id, result: .failure(networkDown)), effects: ["track onboarding_error", "track screen_viewed"],
            changes: [
                "call 2 removed",
                "context.error_code = network",
                "context.error_message = down",
                "last failure = creating",
                "screen = failed",
                "since = now",
            ])
        #expect(flow.screen == "failed")
    }

    @Test func aSuspendAfterCreationFinishedDoesNothing() {
        var flow = atPickName()
        flow.send(.resumed, effects: [], changes: [])
        #expect(flow.screen == "pick_name")
    }

    @Test func quitEndsTheFlowFromAnyScreenEvenWhileBusy() {
        var flow = story()
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
        flow.key(.quit, effects: ["quit"], changes: ["phase = finished"])
        #expect(flow.state.phase == .finished)
    }
}
