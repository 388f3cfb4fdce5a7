@testable import FlowEngine
import ScreenTable
import Testing

/// MIGA (shared/seeds/004) through the reducer: stories 1.1 (the twelve steps), 1.2
/// (setup as a checklist with fallbacks) and 1.3 (apps, hiding, validation, hub).
@Suite struct MigaReducerTests {
    static let order = [
        "welcome", "mission", "time_wasted", "time_saved", "goal", "credibility", "trial",
        "determination", "interests", "journey", "confirm", "completion",
    ]

    /// Walks the twelve steps with readiness 7 and the Focus topic.
    func throughTheSteps() -> FlowDriver {
        var flow = FlowDriver("miga", exhaustive: true)
        flow.launch(effects: ["track onboarding_started", "track step_welcome", "save progress at welcome"])
        for id in Self.order {
            #expect(flow.screen == id)
            switch id {
            case "determination":
                flow.type("7", into: "readiness", effects: [])
                flow.press("Continue", effects: ["track step_interests", "save progress at interests"])
            case "interests":
                flow.focus("interests")
                flow.key(.right, effects: [])
                flow.type(" ", effects: [])
                flow.press("Continue", effects: ["track step_journey", "save progress at journey"])
            default:
                let next = Self.order.drop { $0 != id }.dropFirst().first ?? "setup"
                flow.press(flow.view.actions[0].label, effects: next == "setup" ? ["call prepare_store"] : ["track step_\(next)", "save progress at \(next)"])
            }
        }
        #expect(flow.screen == "setup")
        return flow
    }

    /// Answers each setup task in turn; `effects` says what each answer does.
    mutating func answerTasks(
        _ flow: inout FlowDriver, _ results: [Result<CallOutput, ServiceFailure>], effects: [[String]],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(results.count == effects.count, "one list of effects per answer", sourceLocation: sourceLocation)
        for (result, expected) in zip(results, effects) {
            guard let call = flow.state.calls.task else {
                Issue.record("no task is running", sourceLocation: sourceLocation)
                return
            }
            flow.send(.callFinished(id: call.id, result: result), effects: expected, sourceLocation: sourceLocation)
        }
    }

    /// What each online answer does: the guest's key is saved before the sign-in leaves,
    /// the session when it is back, and the report once setup is done.
    static let onlineEffects = [
        ["save progress at completion", "call sign_in_anonymously"], ["save session u_guest", "call fetch_config"],
        ["call preload_content"], ["call check_compatibility"], ["track setup_completed"],
    ]

    static let online: [Result<CallOutput, ServiceFailure>] = [
        .success(CallOutput(values: ["note": .text("ready")])),
        .success(CallOutput(session: Session(
            userID: "u_guest", accessToken: "a", accessExpiresAt: 4_000_000_000, refreshToken: "r", refreshExpiresAt: nil,
            isAnonymous: true, createdAt: 0, lastAuthenticated: 0), values: ["user_id": .text("u_guest")])),
        .success(CallOutput(values: ["note": .text("content sync on, flow 1.0"), "content_sync_enabled": .text("true")])),
        .success(CallOutput(values: ["note": .text("12 entries cached")])),
        .success(CallOutput(values: ["supported_apps": .list(["Instagram", "TikTok", "X"]), "biometrics": .text("face_id")])),
    ]

    @Test func aFirstLaunchShowsTheWelcomeAndTwelveNumberedStepsInTheSpecsOrder() {
        var flow = FlowDriver("miga", exhaustive: true)
        flow.launch(effects: ["track onboarding_started", "track step_welcome", "save progress at welcome"])
        #expect(flow.view.title == "The Intentional Life Starts Now")
        #expect(flow.view.actions.map(\.label) == ["Begin My Journey"])
        let view = flow.engine.view(of: flow.state)
        #expect(view.stepLabel == "Step 1 of 12")
        let numbered = flow.engine.flow.screens.filter { $0.step != nil }.sorted { $0.step! < $1.step! }.map(\.id)
        #expect(numbered == Self.order)
        let walked = throughTheSteps()
        #expect(walked.text("readiness") == "7")
        #expect(walked.state.context["interests"] == .list(["Focus"]))
    }

    @Test func eachStepIsSavedAndAKillResumesThere() {
        var flow = FlowDriver("miga", exhaustive: true)
        flow.launch(effects: ["track onboarding_started", "track step_welcome", "save progress at welcome"])
        flow.press("Begin My Journey", effects: ["track step_mission", "save progress at mission"])
        flow.press("Continue", effects: ["track step_time_wasted", "save progress at time_wasted"])
        flow.press("Continue", effects: ["track step_time_saved", "save progress at time_saved"])
        let at = flow.screen
        #expect(flow.savedProgress?.screen == at)
        var relaunched = FlowDriver("miga", exhaustive: true)
        relaunched.launch(progress: flow.savedProgress, effects: ["track step_time_saved", "save progress at time_saved"])
        #expect(relaunched.screen == at)
    }

    @Test func theReadinessSliderAndTopicPillsWorkByKeyboard() {
        var flow = FlowDriver("miga", exhaustive: true)
        flow.launch(effects: ["track onboarding_started", "track step_welcome", "save progress at welcome"])
        while let at = flow.screen, at != "determination" {
            let next = Self.order.drop { $0 != at }.dropFirst().first ?? "setup"
            flow.press(flow.view.actions[0].label, effects: ["track step_\(next)", "save progress at \(next)"])
        }
        #expect(flow.text("readiness") == "5")
        flow.focus("readiness")
        flow.key(.right, times: 9, effects: [])
        #expect(flow.text("readiness") == "10", "never past 10")
        flow.key(.home, effects: [])
        #expect(flow.text("readiness") == "1")
        flow.type("910", effects: []) // 9, then 1 starts a new number, then 10
        #expect(flow.text("readiness") == "10")
        flow.type("0", effects: []) // nothing from 1 to 10 starts with 0
        #expect(flow.text("readiness") == "10")
        flow.key(.deleteBackward, effects: [])
        #expect(flow.text("readiness") == "1")
        flow.press("Continue", effects: ["track step_interests", "save progress at interests"])
        #expect(flow.screen == "interests")
        flow.press("Continue", effects: [])
        #expect(flow.state.form.errors["interests"] == "Pick at least one topic.")
    }

    @Test func setupRunsAsAChecklistAndTheButtonsShowOnlyWhenDone() {
        var flow = throughTheSteps()
        #expect(flow.state.checklist.tasks == [.running(nil), .waiting, .waiting, .waiting, .waiting])
        #expect(flow.engine.focusables(of: flow.view, flow.state).isEmpty, "no Continue while setting up")
        var copy = self
        copy.answerTasks(&flow, Self.online, effects: Self.onlineEffects)
        #expect(flow.state.checklist.tasks == [.done("ready"), .done("done"), .done("content sync on, flow 1.0"), .done("12 entries cached"), .done("done")])
        #expect(flow.text("setup_mode") == "online")
        #expect(flow.state.message == .notice("Everything is ready."))
        let report = flow.effects.compactMap { if case .track(let record) = $0, record.name == "setup_completed" { record } else { nil } }.first
        #expect(report?.properties["fallbacks"] == .number(0))
        #expect(report?.properties["duration_ms"] != nil)
        #expect(report?.userID == "p", "analytics keep the device's own id, not the service's u_guest")
        flow.press("Continue", effects: ["save progress at apps"])
        #expect(flow.screen == "apps")
        #expect(flow.view.fields[0].optionsFrom == "supported_apps")
        #expect(flow.engine.resolved(flow.view.fields[0], flow.state).options == ["Instagram", "TikTok", "X"])
    }

    @Test func offlineSetupRetriesSignInThenCompletesInLocalOnlyMode() {
        var flow = throughTheSteps()
        var copy = self
        copy.answerTasks(&flow, [Self.online[0]], effects: [Self.onlineEffects[0]])
        let offline = ServiceFailure(code: "network", message: "offline")
        for attempt in 1...3 {
            #expect(flow.state.calls.task?.attempt == attempt)
            // Issue 32: each retry is said on its line, so QA sees a recovery happen.
            #expect(flow.state.checklist.tasks[1] == .running(attempt == 1 ? nil : "try \(attempt) of 3"))
            // Retried twice, then the flow goes on without an account.
            copy.answerTasks(&flow, [.failure(offline)], effects: [attempt < 3 ? ["call sign_in_anonymously"] : ["call fetch_config"]])
        }
        #expect(flow.state.checklist.tasks[1] == .fellBack("offline: local-only mode"))
        copy.answerTasks(&flow, [
            .success(CallOutput(values: ["note": .text("offline: defaults used"), "fell_back": .text("true")])),
            .success(CallOutput(values: ["note": .text("offline: 10 bundled entries cached"), "fell_back": .text("true")])),
            Self.online[4],
        ], effects: [["call preload_content"], ["call check_compatibility"], ["track setup_completed"]])
        #expect(flow.text("setup_mode") == "local-only")
        #expect(flow.state.message == .notice("MIGA could not reach its service, so it runs in local-only mode: everything works on this device, and content syncs when it can."), "not an error: setup worked")
        #expect(flow.state.session == nil)
        flow.press("Continue", effects: ["save progress at apps"])
        #expect(flow.screen == "apps")
    }

    @Test func aTaskWithNoFallbackStopsTheChecklistAndEnterTriesAgain() {
        var flow = throughTheSteps()
        var copy = self
        copy.answerTasks(&flow, [.failure(ServiceFailure(code: "server_error", message: "The disk is full."))], effects: [[]])
        #expect(flow.state.checklist.tasks[0] == .failed("The disk is full."))
        #expect(flow.state.message == .error("The disk is full. Press Enter to try again."))
        let again = flow.key(.activate, effects: ["call prepare_store"])
        #expect(FlowDriver.calls(again).map(\.operation) == [.prepareStore])
        copy.answerTasks(&flow, Self.online, effects: Self.onlineEffects)
        #expect(flow.engine.checklistDone(flow.state))
    }

    func atApps() -> FlowDriver {
        var flow = throughTheSteps()
        var copy = self
        copy.answerTasks(&flow, Self.online, effects: Self.onlineEffects)
        flow.press("Continue", effects: ["save progress at apps"])
        return flow
    }

    @Test(arguments: [("face_id", "hide_face_id"), ("touch_id", "hide_touch_id"), ("passcode", "hide_passcode"), ("none", "hide_none")])
    func theInstructionsFollowTheDevicesUnlockMethod(biometrics: String, screen: String) {
        var flow = atApps()
        flow.state.context["biometrics"] = .text(biometrics)
        flow.press("Continue", effects: [])
        #expect(flow.state.form.errors["apps"] == "Choose at least one app to put behind a mindful pause.")
        flow.type(" ", into: "apps", effects: [])
        flow.press("Continue", effects: ["save progress at \(screen)"])
        #expect(flow.screen == screen)
        #expect(flow.view.bullets.first?.hasPrefix("1. ") == true, "numbered steps")
        if biometrics == "none" {
            flow.press("Continue to the Hub", effects: ["save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"])
            #expect(flow.screen == "hub", "no passcode does not block")
        }
    }

    /// Issue 30 §5: with no app MIGA can open, the apps screen was an empty list that
    /// refused Continue, with no Back: a dead end. The spec's fallback: instructions
    /// instead, without blocking the app.
    @Test func noSupportedAppIsNotADeadEnd() {
        var flow = throughTheSteps()
        var answers = Self.online
        answers[4] = .success(CallOutput(values: ["supported_apps": .list([]), "biometrics": .text("face_id")]))
        var copy = self
        copy.answerTasks(&flow, answers, effects: Self.onlineEffects)
        flow.press("Continue", effects: ["save progress at no_supported_apps"])
        #expect(flow.screen == "no_supported_apps")
        #expect(flow.shown.buttons.map(\.label) == ["Continue to the Hub"])
        flow.press("Continue to the Hub", effects: ["save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"])
        #expect(flow.screen == "hub")
    }

    @Test func aFailedValidationGivesRetryInstructionsAndKeepsEverything() {
        var flow = atApps()
        flow.type(" ", into: "apps", effects: [])
        flow.press("Continue", effects: ["save progress at hide_face_id"])
        #expect(flow.screen == "hide_face_id")
        flow.press("I've Done It", effects: ["call validate_hiding"])
        _ = flow.fail("not_found", "MIGA can still open the apps directly, so they are not hidden yet.", effects: ["save progress at hide_face_id", "track setup_error"])
        #expect(flow.screen == "hide_face_id")
        if case .error(let text)? = flow.state.message { #expect(text.hasPrefix("Not hidden yet: repeat steps 1-3")) } else { Issue.record("no message") }
        #expect(flow.state.context["apps"] == .list(["Instagram"]))
        // Quitting here and relaunching comes back to these instructions.
        var relaunched = FlowDriver("miga", exhaustive: true)
        relaunched.launch(session: flow.state.session, progress: flow.savedProgress, effects: ["save progress at hide_face_id"])
        #expect(relaunched.screen == "hide_face_id")
        flow.press("I've Done It", effects: ["call validate_hiding"])
        let done = flow.answer(.success(CallOutput(values: ["hiding_verified": .text("true")])), effects: ["save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"])
        #expect(flow.screen == "hub")
        #expect(FlowDriver.tracked(done).map(\.name).contains("hub_unlocked"))
        #expect(FlowDriver.calls(done).map(\.operation) == [.openHub])
        #expect(FlowDriver.calls(done).first?.fields["apps"] == .list(["Instagram"]))
    }

    @Test func afterTheHubARelaunchGoesStraightThereEvenWithoutASession() {
        var flow = atApps()
        flow.state.context["biometrics"] = .text("none")
        flow.type(" ", into: "apps", effects: [])
        flow.press("Continue", effects: ["save progress at hide_none"])
        flow.press("Continue to the Hub", effects: ["save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"])
        var relaunched = FlowDriver("miga", exhaustive: true)
        var progress = flow.savedProgress!
        progress.requiresSession = false
        relaunched.launch(session: nil, progress: progress, effects: ["save progress at hub", "call open_hub"])
        #expect(relaunched.screen == "hub")
    }

    @Test func theHubIsLockedUntilOnboardingIsComplete() {
        // Saved progress from the middle of onboarding never opens the hub.
        var flow = FlowDriver("miga", exhaustive: true)
        flow.launch(effects: ["track onboarding_started", "track step_welcome", "save progress at welcome"])
        flow.press("Begin My Journey", effects: ["track step_mission", "save progress at mission"])
        var relaunched = FlowDriver("miga", exhaustive: true)
        relaunched.launch(progress: flow.savedProgress, effects: ["track step_mission", "save progress at mission"])
        #expect(relaunched.screen == "mission")
        #expect(!relaunched.state.onboardingComplete)
    }

    @Test func noCallSendsTheUsersChoicesToTheService() {
        var flow = atApps()
        flow.type(" ", into: "apps", effects: [])
        flow.press("Continue", effects: ["save progress at hide_face_id"])
        flow.press("I've Done It", effects: ["call validate_hiding"])
        flow.answer(.success(CallOutput()), effects: ["save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"])
        let serviceCalls = FlowDriver.calls(flow.effects).filter { ![.prepareStore, .checkCompatibility, .validateHiding, .openHub, .preloadContent, .fetchConfig].contains($0.operation) }
        #expect(serviceCalls.map(\.operation) == [.signInAnonymously])
        for call in serviceCalls {
            #expect(call.inputs.isEmpty && call.fields.isEmpty)
        }
    }
}

/// QA's jump: any screen at once, with the steps behind it kept for Esc.
@Suite struct JumpReducerTests {
    @Test func aJumpShowsTheScreenDropsTheWaitAndKeepsBack() {
        var flow = FlowDriver("abby", exhaustive: true)
        flow.launch(effects: ["save progress at consent"])
        flow.press("Agree and Continue", effects: ["track auth_method_viewed", "track onboarding_step_viewed", "save progress at method"])
        flow.press("Use Phone Number", effects: ["track onboarding_step_viewed", "save progress at phone"])
        flow.type("5550109999", into: "phone", effects: [])
        flow.press("Send Code", effects: ["save progress at phone", "call send_phone_code"])
        #expect(flow.state.calls.userCall != nil)
        // A forced run: nothing recorded as the person's (issue 30 §1).
        flow.send(.jump("age"), effects: [])
        #expect(flow.screen == "age")
        #expect(flow.state.calls.userCall == nil, "the call under way no longer holds the screen")
        #expect(flow.text("birth_date") != nil, "arrival fills the date as usual")
        flow.send(.jump("no-such-screen"), effects: [])
        #expect(flow.screen == "age")
        flow.key(.back, effects: [])
        #expect(flow.screen == "phone")
    }

    /// Issue 30 §1: OKLah's Jump to Home wrote `onboarding_complete` for a device id with
    /// no account. A jump marks the run forced: no progress, no analytics, no completion,
    /// until the next launch.
    @Test func aJumpRecordsNothingAsThePersons() {
        var flow = FlowDriver("oklah", exhaustive: true)
        flow.launch(effects: ["track onboarding_start", "save progress at privacy"])
        flow.send(.jump("home"), effects: ["call motivation"])
        #expect(flow.screen == "home")
        #expect(!flow.state.onboardingComplete)
        #expect(flow.state.forcedByJump)
        flow.send(.launched(Launch(session: nil, progress: flow.savedProgress, placeholderUserID: "p")),
                  effects: ["track onboarding_start", "save progress at privacy"])
        #expect(!flow.state.forcedByJump, "a relaunch is a real run again")
    }

    /// Issue 30 §1: a guest could jump to "confirm sign out" (its email empty) and orphan
    /// itself. A screen the flow reaches only through guards that do not hold is refused.
    @Test func aJumpHonoursTheFlowsGuards() {
        var flow = FlowDriver("rucktracker")
        let guest = Session(
            userID: "u_guest", accessToken: "at", accessExpiresAt: flow.now / 1000 + 3600, refreshToken: "rt",
            refreshExpiresAt: nil, isAnonymous: true, createdAt: 0, lastAuthenticated: 0, onboardingComplete: true)
        flow.launch(session: guest)
        let before = flow.screen
        flow.send(.jump("confirm_sign_out"), effects: [])
        #expect(flow.screen == before)
        #expect(flow.state.message == .error("QA: the flow cannot reach confirm_sign_out in this state (it needs is_signed_in, or not is_anonymous), so it was not opened."))
        flow.send(.jump("guest_profile"))
        #expect(flow.screen == "guest_profile", "what a guest can reach opens")
    }
}
