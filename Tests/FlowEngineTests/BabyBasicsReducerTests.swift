@testable import FlowEngine
import ScreenTable
import Testing

/// Baby Basics' branches through the reducer.
@Suite struct BabyBasicsReducerTests {
    func named(_ user: String = "u_jo") -> Session {
        let now: Int64 = 1_795_348_800
        return Session(
            userID: user, accessToken: "at", accessExpiresAt: now + 3600, refreshToken: "rt",
            refreshExpiresAt: now + 30 * 86_400, isAnonymous: false, createdAt: 0, lastAuthenticated: 0)
    }

    /// Launched on 2026-11-22 12:00 UTC with this server URL pre-filled.
    func story(url: String = "mock://local") -> FlowDriver {
        var flow = FlowDriver("babybasics", exhaustive: true)
        flow.launch(defaults: ["server_url": .text(url)], effects: ["save progress at server"])
        return flow
    }

    /// Types each value into the form's fields in turn.
    func fill(_ flow: inout FlowDriver, _ values: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for (index, value) in values.enumerated() {
            if index > 0 { flow.key(.focusNext, effects: ["save progress at \(flow.screen ?? "")"], sourceLocation: sourceLocation) }
            flow.type(value, effects: [], sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [FlowEvent.closing, .intent(.quit)])
    func whatIsTypedIsKeptWhenTheRunEnds(ending: FlowEvent) {
        var flow = FlowDriver("babybasics", exhaustive: true)
        flow.launch(effects: ["save progress at server"])
        flow.type("https://baby.example.org", into: "server_url", effects: [])
        // The draft is saved first; a quit then ends the run.
        flow.send(ending, effects: ending == .closing ? ["save progress at server"] : ["save progress at server", "quit"])
        #expect(flow.savedProgress?.screen == "server")
        #expect(flow.savedProgress?.context["server_url"] == .text("https://baby.example.org"))
    }

    /// Issue 30 §5: a pause in typing saves the draft; a burst of keys costs one write.
    @Test func aPauseInTypingSavesTheDraft() {
        var flow = FlowDriver("babybasics", exhaustive: true)
        flow.launch(effects: ["save progress at server"])
        flow.type("https://baby", into: "server_url", effects: [])
        flow.send(.tick, effects: [])
        flow.now += 200
        flow.type(".example.org", effects: [])
        flow.now += FlowEngine.draftPause - 1
        flow.send(.tick, effects: [])
        flow.now += 1
        flow.send(.tick, effects: ["save progress at server"])
        #expect(flow.savedProgress?.context["server_url"] == .text("https://baby.example.org"))
        flow.now += 5_000
        flow.send(.tick, effects: [], sourceLocation: #_sourceLocation)
    }

    @Test func theServerURLIsPrefilledCheckedAndChoosesTheService() {
        var flow = story(url: "http://127.0.0.1:8080")
        #expect(flow.screen == "server")
        #expect(flow.text("server_url") == "http://127.0.0.1:8080")
        let effects = flow.press("Continue", effects: ["call connect_server"])
        #expect(FlowDriver.calls(effects).first?.service == "http://127.0.0.1:8080")
        flow.fail("network", "refused", effects: ["save progress at server"])
        #expect(flow.screen == "server_unreachable")
        // The spec's words, then what went wrong (issue 31: a server without TLS said only "cannot be reached").
        #expect(flow.shown.body == "Can't connect to server. Check the URL and try again.\nTried: http://127.0.0.1:8080\nrefused")
        flow.press("Retry", effects: ["save progress at server", "call connect_server"])
        flow.answer(.success(CallOutput(values: ["server_url": .text("http://127.0.0.1:8080")])), effects: ["save progress at auth"])
        #expect(flow.screen == "auth")
        // The URL is saved with the first resume point past it.
        #expect(flow.savedProgress?.context["server_url"] == .text("http://127.0.0.1:8080"))
    }

    @Test(arguments: ["baby.example.org", "https://baby example.org", "ftp://x"])
    func aURLThatIsNotAServiceAddressIsRefusedBeforeAnyCall(url: String) {
        var flow = story(url: url)
        flow.press("Continue", effects: [])
        #expect(flow.state.form.errors["server_url"] == "Enter a full address such as https://baby.example.org, with no spaces.")
    }

    func atAuth() -> FlowDriver {
        var flow = story()
        flow.press("Continue", effects: ["call connect_server"])
        flow.answer(.success(CallOutput()), effects: ["save progress at auth"])
        return flow
    }

    @Test func aTakenEmailStaysOnTheFormWithTheSpecsMessage() {
        var flow = atAuth()
        flow.press("Create Account", effects: ["save progress at register"])
        fill(&flow, ["Jo", "jo@example.org", "long enough"])
        flow.press("Create Account", effects: ["save progress at register", "call register"])
        flow.fail("conflict", "taken", effects: ["save progress at register"])
        #expect(flow.screen == "register")
        #expect(flow.state.message == .error("An account with this email already exists. Try logging in."))
        flow.press("Log In Instead", effects: ["save progress at login"])
        #expect(flow.screen == "login")
        #expect(flow.text("email") == "jo@example.org")
    }

    @Test func aFailedAcceptKeepsTheNewSessionAndAsksOnlyForTheCode() {
        var flow = atAuth()
        flow.press("I Have an Invite", effects: ["save progress at invite"])
        fill(&flow, ["Pat", "pat@example.org", "long enough", "bad-code"])
        flow.press("Join", effects: ["save progress at invite", "call register"])
        flow.answer(.success(CallOutput(session: named("u_pat"))), effects: ["save session u_pat", "backfill analytics for u_pat", "save progress at invite", "call accept_invite"])
        #expect(flow.screen == "accepting")
        flow.fail("not_found", "x", effects: ["save progress at invite_retry"])
        #expect(flow.screen == "invite_retry")
        #expect(flow.state.message == .error("This invite link is invalid or has already been used."))
        #expect(flow.state.session?.userID == "u_pat")
        #expect(flow.shown.fields.map(\.label) == ["Invite code or link"])
        flow.press("Join", effects: ["call accept_invite"]) // never registers again
        flow.answer(.success(CallOutput(values: ["child_name": .text("Ray"), "shared_by": .text("Jo"), "children": .list(["Ray"])])), effects: ["save progress at tracking"])
        #expect(flow.screen == "tracking")
        #expect(flow.shown.title == "You're now tracking Ray")
    }

    @Test(arguments: [true, false]) func logInGoesToTheDashboardOnlyWithChildren(hasChildren: Bool) {
        var flow = atAuth()
        flow.press("Log in", effects: ["save progress at login"]) // the spec's link under the buttons
        fill(&flow, ["jo@example.org", "long enough"])
        flow.press("Log In", effects: ["call log_in"])
        flow.answer(.success(CallOutput(session: named())), effects: ["save session u_jo", "backfill analytics for u_jo", "call load_children"])
        #expect(flow.screen == "checking_children")
        flow.answer(.success(CallOutput(values: ["children": .list(hasChildren ? ["Ray"] : [])])), effects: hasChildren ? ["save session u_jo", "save progress at dashboard", "call load_children"] : ["save progress at add_baby"])
        #expect(flow.screen == (hasChildren ? "dashboard" : "add_baby"))
    }

    @Test func theBirthDateDefaultsToTodayMovesByKeysAndNeverPassesToday() {
        var flow = atAuth()
        flow.press("Create Account", effects: ["save progress at register"])
        fill(&flow, ["Jo", "jo@example.org", "long enough"])
        flow.press("Create Account", effects: ["save progress at register", "call register"])
        flow.answer(.success(CallOutput(session: named())), effects: ["save session u_jo", "backfill analytics for u_jo", "save progress at add_baby"])
        #expect(flow.screen == "add_baby")
        #expect(flow.text("birth_date") == "2026-11-22")
        flow.key(.focusNext, effects: ["save progress at add_baby"])
        flow.key(.right, effects: [])
        #expect(flow.text("birth_date") == "2026-11-22", "no future dates")
        flow.key(.left, effects: [])
        flow.key(.pageDown, effects: [])
        flow.key(.home, effects: [])
        #expect(flow.text("birth_date") == "2025-10-21")
        // Letters are ignored; digits typed replace the date, dashes added as they go.
        flow.type("x", effects: [])
        #expect(flow.text("birth_date") == "2025-10-21")
        flow.type("202403", effects: [])
        #expect(flow.text("birth_date") == "2024-03")
        flow.press("Let's Go!", effects: [])
        #expect(flow.state.form.errors["birth_date"] == "Enter the date as YYYY-MM-DD.")
    }

    @Test func aSecondLaunchAfterStepOneResumesAtStepTwo() {
        let auth = atAuth()
        var next = FlowDriver("babybasics", exhaustive: true)
        next.launch(progress: auth.savedProgress, defaults: ["server_url": .text("http://elsewhere")], effects: ["save progress at auth"])
        #expect(next.screen == "auth")
        #expect(next.text("server_url") == "mock://local", "the saved URL wins over the default")
    }
}
