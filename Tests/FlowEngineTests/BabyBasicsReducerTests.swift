@testable import FlowEngine
import ScreenTable
import Testing

/// Baby Basics' branches through the reducer.
@Suite struct BabyBasicsReducerTests {
    let engine = FlowEngine(flow: try! BuiltinFlows.load("babybasics"))
    /// 2026-11-22 12:00 UTC.
    let now: Int64 = 1_795_348_800_000

    func named(_ user: String = "u_jo") -> Session {
        Session(
            userID: user, accessToken: "at", accessExpiresAt: now / 1000 + 3600, refreshToken: "rt",
            refreshExpiresAt: now / 1000 + 30 * 86_400, isAnonymous: false, createdAt: 0, lastAuthenticated: 0)
    }

    func launch(defaults: [String: Value] = ["server_url": .text("mock://local")]) -> FlowState {
        var state = FlowState()
        _ = engine.reduce(&state, .launched(Launch(session: nil, progress: nil, placeholderUserID: "p", defaults: defaults)), now: now)
        return state
    }

    func calls(_ effects: [Effect]) -> [CallRequest] {
        effects.compactMap { if case .call(let request) = $0 { request } else { nil } }
    }

    func press(_ label: String, _ state: inout FlowState) -> [Effect] {
        let screen = engine.currentScreen(state)!
        let items = engine.focusables(of: screen, state)
        guard let index = screen.actions.firstIndex(where: { $0.label == label }), let focus = items.firstIndex(of: .action(index)) else {
            Issue.record("no '\(label)' on \(screen.id)")
            return []
        }
        state.form.focus = focus
        return engine.reduce(&state, .intent(.activate), now: now)
    }

    func finish(_ state: inout FlowState, _ result: Result<CallOutput, ServiceFailure>) -> [Effect] {
        engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: result), now: now)
    }

    @Test(arguments: [FlowEvent.closing, .intent(.quit)])
    func whatIsTypedIsKeptWhenTheRunEnds(ending: FlowEvent) {
        var driver = FlowDriver("babybasics")
        driver.launch()
        driver.type("https://baby.example.org", into: "server_url")
        let effects = driver.send(ending)
        let saved = effects.compactMap { if case .saveProgress(let progress?) = $0 { progress } else { nil } }.last
        #expect(saved?.screen == "server")
        #expect(saved?.context["server_url"] == .text("https://baby.example.org"))
    }

    @Test func theServerURLIsPrefilledCheckedAndChoosesTheService() {
        var state = launch(defaults: ["server_url": .text("http://127.0.0.1:8080")])
        #expect(state.screenID == "server")
        #expect(state.context["server_url"] == .text("http://127.0.0.1:8080"))
        let effects = press("Continue", &state)
        #expect(calls(effects).first?.operation == .connectServer)
        #expect(calls(effects).first?.service == "http://127.0.0.1:8080")
        _ = finish(&state, .failure(ServiceFailure(code: "network", message: "refused")))
        #expect(state.screenID == "server_unreachable")
        #expect(engine.currentScreen(state)!.body == "Can't connect to server. Check the URL and try again.\nTried: {server_url}")
        let retry = press("Retry", &state)
        #expect(calls(retry).first?.operation == .connectServer)
        _ = finish(&state, .success(CallOutput(values: ["server_url": .text("http://127.0.0.1:8080")])))
        #expect(state.screenID == "auth")
        // The URL is saved with the first resume point past it.
        #expect(state.context["server_url"] == .text("http://127.0.0.1:8080"))
    }

    @Test(arguments: ["baby.example.org", "https://baby example.org", "ftp://x"])
    func aURLThatIsNotAServiceAddressIsRefusedBeforeAnyCall(url: String) {
        var state = launch(defaults: ["server_url": .text(url)])
        let effects = press("Continue", &state)
        #expect(calls(effects).isEmpty)
        #expect(state.form.errors["server_url"] == "Enter a full address such as https://baby.example.org, with no spaces.")
    }

    func atAuth() -> FlowState {
        var state = launch()
        _ = press("Continue", &state)
        _ = finish(&state, .success(CallOutput()))
        return state
    }

    @Test func aTakenEmailStaysOnTheFormWithTheSpecsMessage() {
        var state = atAuth()
        _ = press("Create Account", &state)
        _ = engine.reduce(&state, .intent(.insert("Jo")), now: now)
        _ = engine.reduce(&state, .intent(.focusNext), now: now)
        _ = engine.reduce(&state, .intent(.insert("jo@example.org")), now: now)
        _ = engine.reduce(&state, .intent(.focusNext), now: now)
        _ = engine.reduce(&state, .intent(.insert("long enough")), now: now)
        _ = press("Create Account", &state)
        _ = finish(&state, .failure(ServiceFailure(code: "conflict", message: "taken")))
        #expect(state.screenID == "register")
        #expect(state.message == .error("An account with this email already exists. Try logging in."))
        _ = press("Log In Instead", &state)
        #expect(state.screenID == "login")
        #expect(state.context["email"] == .text("jo@example.org"))
    }

    @Test func aFailedAcceptKeepsTheNewSessionAndAsksOnlyForTheCode() {
        var state = atAuth()
        _ = press("I Have an Invite", &state)
        for (index, value) in ["Pat", "pat@example.org", "long enough", "bad-code"].enumerated() {
            if index > 0 { _ = engine.reduce(&state, .intent(.focusNext), now: now) }
            _ = engine.reduce(&state, .intent(.insert(value)), now: now)
        }
        let join = press("Join", &state)
        #expect(calls(join).first?.operation == .register)
        let accept = finish(&state, .success(CallOutput(session: named("u_pat"))))
        #expect(state.screenID == "accepting")
        #expect(calls(accept).first?.operation == .acceptInvite)
        _ = finish(&state, .failure(ServiceFailure(code: "not_found", message: "x")))
        #expect(state.screenID == "invite_retry")
        #expect(state.message == .error("This invite link is invalid or has already been used."))
        #expect(state.session?.userID == "u_pat")
        #expect(engine.currentScreen(state)!.fields.map(\.id) == ["invite_code"])
        let again = press("Join", &state)
        #expect(calls(again).map(\.operation) == [.acceptInvite], "never registers again")
        _ = finish(&state, .success(CallOutput(values: ["child_name": .text("Ray"), "shared_by": .text("Jo"), "children": .list(["Ray"])])))
        #expect(state.screenID == "tracking")
        #expect(Placeholders.fill(engine.currentScreen(state)!.title, from: state.context) == "You're now tracking Ray")
    }

    @Test(arguments: [true, false]) func logInGoesToTheDashboardOnlyWithChildren(hasChildren: Bool) {
        var state = atAuth()
        _ = press("Log in", &state) // the spec's link under the buttons
        _ = engine.reduce(&state, .intent(.insert("jo@example.org")), now: now)
        _ = engine.reduce(&state, .intent(.focusNext), now: now)
        _ = engine.reduce(&state, .intent(.insert("long enough")), now: now)
        _ = press("Log In", &state)
        let load = finish(&state, .success(CallOutput(session: named())))
        #expect(state.screenID == "checking_children")
        #expect(calls(load).first?.operation == .loadChildren)
        _ = finish(&state, .success(CallOutput(values: ["children": .list(hasChildren ? ["Ray"] : [])])))
        #expect(state.screenID == (hasChildren ? "dashboard" : "add_baby"))
    }

    @Test func theBirthDateDefaultsToTodayMovesByKeysAndNeverPassesToday() {
        var state = atAuth()
        _ = press("Create Account", &state)
        for (index, value) in ["Jo", "jo@example.org", "long enough"].enumerated() {
            if index > 0 { _ = engine.reduce(&state, .intent(.focusNext), now: now) }
            _ = engine.reduce(&state, .intent(.insert(value)), now: now)
        }
        _ = press("Create Account", &state)
        _ = finish(&state, .success(CallOutput(session: named())))
        #expect(state.screenID == "add_baby")
        #expect(state.context["birth_date"] == .text("2026-11-22"))
        _ = engine.reduce(&state, .intent(.focusNext), now: now)
        _ = engine.reduce(&state, .intent(.right), now: now)
        #expect(state.context["birth_date"] == .text("2026-11-22"), "no future dates")
        _ = engine.reduce(&state, .intent(.left), now: now)
        _ = engine.reduce(&state, .intent(.pageDown), now: now)
        _ = engine.reduce(&state, .intent(.home), now: now)
        #expect(state.context["birth_date"] == .text("2025-10-21"))
        // Letters are ignored; digits typed replace the date, dashes added as they go.
        _ = engine.reduce(&state, .intent(.insert("x")), now: now)
        #expect(state.context["birth_date"] == .text("2025-10-21"))
        _ = engine.reduce(&state, .intent(.insert("202403")), now: now)
        #expect(state.context["birth_date"] == .text("2024-03"))
        let save = press("Let's Go!", &state)
        #expect(calls(save).isEmpty)
        #expect(state.form.errors["birth_date"] == "Enter the date as YYYY-MM-DD.")
    }

    @Test func aSecondLaunchAfterStepOneResumesAtStepTwo() {
        let state = atAuth()
        let progress = SavedProgress(screen: "auth", context: state.context, onboardingComplete: false, startedAt: nil, placeholderUserID: "p", requiresSession: false)
        var next = FlowState()
        _ = engine.reduce(&next, .launched(Launch(session: nil, progress: progress, placeholderUserID: "p", defaults: ["server_url": .text("http://elsewhere")])), now: now)
        #expect(next.screenID == "auth")
        #expect(next.context["server_url"] == .text("mock://local"), "the saved URL wins over the default")
    }
}
