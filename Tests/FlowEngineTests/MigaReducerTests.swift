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
        var flow = FlowDriver("miga")
        flow.launch()
        for id in Self.order {
            #expect(flow.screen == id)
            switch id {
            case "determination":
                flow.type("7", into: "readiness")
                flow.press("Continue")
            case "interests":
                flow.focus("interests")
                flow.key(.right)
                flow.type(" ")
                flow.press("Continue")
            default:
                flow.press(flow.view.actions[0].label)
            }
        }
        #expect(flow.screen == "setup")
        return flow
    }

    /// Answers each setup task in turn.
    mutating func answerTasks(_ flow: inout FlowDriver, _ results: [Result<CallOutput, ServiceFailure>]) {
        for result in results {
            guard let call = flow.state.calls.task else {
                Issue.record("no task is running")
                return
            }
            flow.send(.callFinished(id: call.id, result: result))
        }
    }

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
        var flow = FlowDriver("miga")
        flow.launch()
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
        var flow = FlowDriver("miga")
        flow.launch()
        flow.press("Begin My Journey")
        flow.press("Continue")
        flow.press("Continue")
        let at = flow.screen
        #expect(flow.savedProgress?.screen == at)
        var relaunched = FlowDriver("miga")
        relaunched.launch(progress: flow.savedProgress)
        #expect(relaunched.screen == at)
    }

    @Test func theReadinessSliderAndTopicPillsWorkByKeyboard() {
        var flow = FlowDriver("miga")
        flow.launch()
        while flow.screen != "determination" { flow.press(flow.view.actions[0].label) }
        #expect(flow.text("readiness") == "5")
        flow.focus("readiness")
        flow.key(.right, times: 9)
        #expect(flow.text("readiness") == "10", "never past 10")
        flow.key(.home)
        #expect(flow.text("readiness") == "1")
        flow.type("910") // 9, then 1 starts a new number, then 10
        #expect(flow.text("readiness") == "10")
        flow.type("0") // nothing from 1 to 10 starts with 0
        #expect(flow.text("readiness") == "10")
        flow.key(.deleteBackward)
        #expect(flow.text("readiness") == "1")
        flow.press("Continue")
        #expect(flow.screen == "interests")
        flow.press("Continue")
        #expect(flow.state.form.errors["interests"] == "Pick at least one topic.")
    }

    @Test func setupRunsAsAChecklistAndTheButtonsShowOnlyWhenDone() {
        var flow = throughTheSteps()
        #expect(flow.state.checklist.tasks == [.running, .waiting, .waiting, .waiting, .waiting])
        #expect(flow.engine.focusables(of: flow.view, flow.state).isEmpty, "no Continue while setting up")
        var copy = self
        copy.answerTasks(&flow, Self.online)
        #expect(flow.state.checklist.tasks == [.done("ready"), .done("done"), .done("content sync on, flow 1.0"), .done("12 entries cached"), .done("done")])
        #expect(flow.text("setup_mode") == "online")
        #expect(flow.state.message == .notice("Everything is ready."))
        let report = flow.effects.compactMap { if case .track(let record) = $0, record.name == "setup_completed" { record } else { nil } }.first
        #expect(report?.properties["fallbacks"] == .number(0))
        #expect(report?.properties["duration_ms"] != nil)
        #expect(report?.userID == "p", "analytics keep the device's own id, not the service's u_guest")
        flow.press("Continue")
        #expect(flow.screen == "apps")
        #expect(flow.view.fields[0].optionsFrom == "supported_apps")
        #expect(flow.engine.resolved(flow.view.fields[0], flow.state).options == ["Instagram", "TikTok", "X"])
    }

    @Test func offlineSetupRetriesSignInThenCompletesInLocalOnlyMode() {
        var flow = throughTheSteps()
        var copy = self
        copy.answerTasks(&flow, [Self.online[0]])
        let offline = ServiceFailure(code: "network", message: "offline")
        for attempt in 1...3 {
            #expect(flow.state.calls.task?.attempt == attempt)
            copy.answerTasks(&flow, [.failure(offline)])
        }
        #expect(flow.state.checklist.tasks[1] == .fellBack("offline: local-only mode"))
        copy.answerTasks(&flow, [
            .success(CallOutput(values: ["note": .text("offline: defaults used"), "fell_back": .text("true")])),
            .success(CallOutput(values: ["note": .text("offline: 10 bundled entries cached"), "fell_back": .text("true")])),
            Self.online[4],
        ])
        #expect(flow.text("setup_mode") == "local-only")
        #expect(flow.state.message == .notice("MIGA could not reach its service, so it runs in local-only mode: everything works on this device, and content syncs when it can."), "not an error: setup worked")
        #expect(flow.state.session == nil)
        flow.press("Continue")
        #expect(flow.screen == "apps")
    }

    @Test func aTaskWithNoFallbackStopsTheChecklistAndEnterTriesAgain() {
        var flow = throughTheSteps()
        var copy = self
        copy.answerTasks(&flow, [.failure(ServiceFailure(code: "server_error", message: "The disk is full."))])
        #expect(flow.state.checklist.tasks[0] == .failed("The disk is full."))
        #expect(flow.state.message == .error("The disk is full. Press Enter to try again."))
        let again = flow.key(.activate)
        #expect(FlowDriver.calls(again).map(\.operation) == [.prepareStore])
        copy.answerTasks(&flow, Self.online)
        #expect(flow.engine.checklistDone(flow.state))
    }

    func atApps() -> FlowDriver {
        var flow = throughTheSteps()
        var copy = self
        copy.answerTasks(&flow, Self.online)
        flow.press("Continue")
        return flow
    }

    @Test(arguments: [("face_id", "hide_face_id"), ("touch_id", "hide_touch_id"), ("passcode", "hide_passcode"), ("none", "hide_none")])
    func theInstructionsFollowTheDevicesUnlockMethod(biometrics: String, screen: String) {
        var flow = atApps()
        flow.state.context["biometrics"] = .text(biometrics)
        flow.press("Continue")
        #expect(flow.state.form.errors["apps"] == "Choose at least one app to put behind a mindful pause.")
        flow.type(" ", into: "apps")
        flow.press("Continue")
        #expect(flow.screen == screen)
        #expect(flow.view.bullets.first?.hasPrefix("1. ") == true, "numbered steps")
        if biometrics == "none" {
            flow.press("Continue to the Hub")
            #expect(flow.screen == "hub", "no passcode does not block")
        }
    }

    @Test func aFailedValidationGivesRetryInstructionsAndKeepsEverything() {
        var flow = atApps()
        flow.type(" ", into: "apps")
        flow.press("Continue")
        #expect(flow.screen == "hide_face_id")
        flow.press("I've Done It")
        _ = flow.fail("not_found", "MIGA can still open the apps directly, so they are not hidden yet.")
        #expect(flow.screen == "hide_face_id")
        if case .error(let text)? = flow.state.message { #expect(text.hasPrefix("Not hidden yet: repeat steps 1-3")) } else { Issue.record("no message") }
        #expect(flow.state.context["apps"] == .list(["Instagram"]))
        // Quitting here and relaunching comes back to these instructions.
        var relaunched = FlowDriver("miga")
        relaunched.launch(session: flow.state.session, progress: flow.savedProgress)
        #expect(relaunched.screen == "hide_face_id")
        flow.press("I've Done It")
        let done = flow.answer(.success(CallOutput(values: ["hiding_verified": .text("true")])))
        #expect(flow.screen == "hub")
        #expect(FlowDriver.tracked(done).map(\.name).contains("hub_unlocked"))
        #expect(FlowDriver.calls(done).map(\.operation) == [.openHub])
        #expect(FlowDriver.calls(done).first?.fields["apps"] == .list(["Instagram"]))
    }

    @Test func afterTheHubARelaunchGoesStraightThereEvenWithoutASession() {
        var flow = atApps()
        flow.state.context["biometrics"] = .text("none")
        flow.type(" ", into: "apps")
        flow.press("Continue")
        flow.press("Continue to the Hub")
        var relaunched = FlowDriver("miga")
        var progress = flow.savedProgress!
        progress.requiresSession = false
        relaunched.launch(session: nil, progress: progress)
        #expect(relaunched.screen == "hub")
    }

    @Test func theHubIsLockedUntilOnboardingIsComplete() {
        // Saved progress from the middle of onboarding never opens the hub.
        var flow = FlowDriver("miga")
        flow.launch()
        flow.press("Begin My Journey")
        var relaunched = FlowDriver("miga")
        relaunched.launch(progress: flow.savedProgress)
        #expect(relaunched.screen == "mission")
        #expect(!relaunched.state.onboardingComplete)
    }

    @Test func noCallSendsTheUsersChoicesToTheService() {
        var flow = atApps()
        flow.type(" ", into: "apps")
        flow.press("Continue")
        flow.press("I've Done It")
        flow.answer(.success(CallOutput()))
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
        var flow = FlowDriver("abby")
        flow.launch()
        flow.press("Agree and Continue")
        flow.press("Use Phone Number")
        flow.type("5550109999", into: "phone")
        flow.press("Send Code")
        #expect(flow.state.calls.userCall != nil)
        flow.send(.jump("age"))
        #expect(flow.screen == "age")
        #expect(flow.state.calls.userCall == nil, "the call under way no longer holds the screen")
        #expect(flow.text("birth_date") != nil, "arrival fills the date as usual")
        flow.send(.jump("no-such-screen"))
        #expect(flow.screen == "age")
        flow.key(.back)
        #expect(flow.screen == "phone")
    }
}
