@testable import FlowEngine
import ScreenTable
import Testing

/// Baby Basics' branches through the reducer.
@Suite struct BabyBasicsReducerTests {
    func named(_ user: String = "u_jo") -> Session {
        .issued(to: user, guest: false, at: 1_795_348_800, refreshFor: 30 * 86_400)
    }

    /// Launched on 2026-11-22 12:00 UTC with this server URL pre-filled.
    func story(url: String = "mock://local") -> FlowDriver {
        var flow = FlowDriver("babybasics")
        flow.launch(
            defaults: ["server_url": .text(url)], effects: ["track screen_viewed", "save progress at server"],
            changes: [
                "context.server_url = \(url)", "phase = showing", "placeholder = p", "screen = server", "since = now", "started = now",
                "starts run removed",
            ])
        return flow
    }

    /// Types each value into the form's fields in turn (each into an empty field).
    func fill(_ flow: inout FlowDriver, _ values: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for (index, value) in values.enumerated() {
            if index > 0 {
                flow.key(
                    .focusNext, effects: ["save progress at \(flow.screen ?? "")"], changes: ["edited removed", "focus = \(index)"],
                    sourceLocation: sourceLocation)
            }
            let field = flow.view.fields[index].id
            flow.type(value, effects: [], changes: ["context.\(field) = \(value)", "edited = now"], sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [FlowEvent.closing, .intent(.quit)])
    func whatIsTypedIsKeptWhenTheRunEnds(ending: FlowEvent) {
        var flow = FlowDriver("babybasics")
        flow.launch(
            effects: ["track screen_viewed", "save progress at server"],
            changes: ["phase = showing", "placeholder = p", "screen = server", "since = now", "started = now", "starts run removed"])
        flow.type(
            "https://baby.example.org", into: "server_url", effects: [],
            changes: ["context.server_url = https://baby.example.org", "edited = now"])
        // The draft is saved first; a quit then ends the run.
        flow.send(
            ending, effects: ending == .closing ? ["save progress at server"] : ["save progress at server", "quit"],
            changes: ending == .closing ? ["edited removed"] : ["edited removed", "phase = finished"])
        #expect(flow.savedProgress?.screen == "server")
        #expect(flow.savedProgress?.context["server_url"] == .text("https://baby.example.org"))
    }

    /// Issue 30 §5: a pause in typing saves the draft; a burst of keys costs one write.
    @Test func aPauseInTypingSavesTheDraft() {
        var flow = FlowDriver("babybasics")
        flow.launch(
            effects: ["track screen_viewed", "save progress at server"],
            changes: ["phase = showing", "placeholder = p", "screen = server", "since = now", "started = now", "starts run removed"])
        flow.type("https://baby", into: "server_url", effects: [], changes: ["context.server_url = https://baby", "edited = now"])
        flow.send(.tick, effects: [], changes: [])
        flow.now += 200
        flow.type(".example.org", effects: [], changes: ["context.server_url = https://baby.example.org", "edited = now"])
        flow.now += FlowEngine.draftPause - 1
        flow.send(.tick, effects: [], changes: [])
        flow.now += 1
        flow.send(.tick, effects: ["save progress at server"], changes: ["edited removed"])
        #expect(flow.savedProgress?.context["server_url"] == .text("https://baby.example.org"))
        flow.now += 5_000
        flow.send(.tick, effects: [], changes: [], sourceLocation: #_sourceLocation)
    }

    @Test func theServerURLIsPrefilledCheckedAndChoosesTheService() {
        var flow = story(url: "http://127.0.0.1:8080")
        #expect(flow.screen == "server")
        #expect(flow.text("server_url") == "http://127.0.0.1:8080")
        let effects = flow.press(
            "Continue", effects: ["save progress at server", "call connect_server"],
            changes: ["call 1 = connect_server (user's, from server)", "focus = 1"])
        #expect(FlowDriver.calls(effects).first?.service == "http://127.0.0.1:8080")
        flow.fail(
            "network", "refused", effects: ["save progress at server", "track screen_viewed"],
            changes: [
                "call 1 removed",
                "context.error_code = network",
                "context.error_message = refused",
                "focus = 0",
                "history = server",
                "last failure = server",
                "screen = server_unreachable",
            ])
        #expect(flow.screen == "server_unreachable")
        // The spec's words, then what went wrong (issue 31: a server without TLS said only "cannot be reached").
        #expect(flow.shown.body == "Can't connect to server. Check the URL and try again.\nTried: http://127.0.0.1:8080\nrefused")
        flow.press(
            "Retry", effects: ["track screen_viewed", "save progress at server", "call connect_server"],
            changes: ["call 2 = connect_server (user's, from server)", "retries = 1", "screen = server"])
        flow.answer(
            .success(CallOutput(values: ["server_url": .text("http://127.0.0.1:8080")])),
            effects: ["track screen_viewed", "save progress at auth"],
            changes: [
                "call 2 removed",
                "context.error_code removed",
                "context.error_message removed",
                "history = server › server",
                "screen = auth", "succeeded connect_server = now",
            ])
        #expect(flow.screen == "auth")
        // The URL is saved with the first resume point past it.
        #expect(flow.savedProgress?.context["server_url"] == .text("http://127.0.0.1:8080"))
    }

    @Test(arguments: ["baby.example.org", "https://baby example.org", "ftp://x"])
    func aURLThatIsNotAServiceAddressIsRefusedBeforeAnyCall(url: String) {
        var flow = story(url: url)
        flow.press(
            "Continue", effects: ["save progress at server"],
            changes: ["error.server_url = Enter a full address such as https://baby.example.org, with no spaces."])
        #expect(flow.state.form.errors["server_url"] == "Enter a full address such as https://baby.example.org, with no spaces.")
    }

    func atAuth() -> FlowDriver {
        var flow = story()
        flow.press(
            "Continue", effects: ["save progress at server", "call connect_server"],
            changes: ["call 1 = connect_server (user's, from server)", "focus = 1"])
        flow.answer(
            .success(CallOutput()), effects: ["track screen_viewed", "save progress at auth"],
            changes: ["call 1 removed", "focus = 0", "history = server", "screen = auth", "succeeded connect_server = now"])
        return flow
    }

    @Test func aTakenEmailStaysOnTheFormWithTheSpecsMessage() {
        var flow = atAuth()
        flow.press(
            "Create Account", effects: ["track screen_viewed", "save progress at register"],
            changes: ["history = server › auth", "screen = register"])
        fill(&flow, ["Jo", "jo@example.org", "long enough"])
        flow.press(
            "Create Account", effects: ["save progress at register", "save progress at register", "call register"],
            changes: [
                "call 2 = register (user's, from register), keyed",
                "context.idempotency_key.register = p-1795348800000-2",
                "edited removed",
                "focus = 3",
            ])
        flow.fail(
            "conflict", "taken", effects: ["save progress at register"],
            changes: [
                "call 2 removed",
                "context.error_code = conflict",
                "context.error_message = taken",
                "last failure = register",
                "message = error: An account with this email already exists. Try logging in.",
            ])
        #expect(flow.screen == "register")
        #expect(flow.state.message == .error("An account with this email already exists. Try logging in."))
        flow.press(
            "Log In Instead", effects: ["save progress at register", "track screen_viewed", "save progress at login"],
            changes: ["focus = 0", "history = server › auth › register", "message removed", "screen = login"])
        #expect(flow.screen == "login")
        #expect(flow.text("email") == "jo@example.org")
    }

    @Test func aFailedAcceptKeepsTheNewSessionAndAsksOnlyForTheCode() {
        var flow = atAuth()
        flow.press(
            "I Have an Invite", effects: ["track screen_viewed", "save progress at invite"],
            changes: ["history = server › auth", "screen = invite"])
        fill(&flow, ["Pat", "pat@example.org", "long enough", "bad-code"])
        flow.press(
            "Join", effects: ["save progress at invite", "save progress at invite", "call register"],
            changes: [
                "call 2 = register (user's, from invite), keyed",
                "context.idempotency_key.register = p-1795348800000-2",
                "edited removed",
                "focus = 4",
            ])
        flow.answer(
            .success(CallOutput(session: named("u_pat"))),
            effects: [
                "save session u_pat", "backfill analytics for u_pat", "track screen_viewed", "save progress at invite",
                "call accept_invite",
            ],
            changes: [
                "call 2 removed",
                "call 3 = accept_invite (user's, from accepting), keyed",
                "context.idempotency_key.accept_invite = p-1795348800000-3",
                "context.idempotency_key.register removed",
                "context.password removed",
                "focus = 0",
                "history = invite",
                "screen = accepting",
                "session = u_pat named", "succeeded register = now",
            ])
        #expect(flow.screen == "accepting")
        flow.fail(
            "not_found", "x", effects: ["track screen_viewed", "save progress at invite_retry"],
            changes: [
                "call 3 removed",
                "context.error_code = not_found",
                "context.error_message = x",
                "last failure = accepting",
                "message = error: This invite link is invalid or has already been used.",
                "screen = invite_retry",
            ])
        #expect(flow.screen == "invite_retry")
        #expect(flow.state.message == .error("This invite link is invalid or has already been used."))
        #expect(flow.state.session?.userID == "u_pat")
        #expect(flow.shown.fields.map(\.label) == ["Invite code or link"])
        flow.press(
            "Join", effects: ["save progress at invite_retry", "track screen_viewed", "call accept_invite"],
            changes: [
                "call 4 = accept_invite (user's, from accepting), keyed",
                "history = invite › invite_retry",
                "message removed",
                "screen = accepting",
            ])  // never registers again
        flow.answer(
            .success(CallOutput(values: ["child_name": .text("Ray"), "shared_by": .text("Jo"), "children": .list(["Ray"])])),
            effects: ["track screen_viewed", "save progress at tracking"],
            changes: [
                "call 4 removed",
                "context.child_name = Ray",
                "context.children = [Ray]",
                "context.error_code removed",
                "context.error_message removed",
                "context.idempotency_key.accept_invite removed",
                "context.shared_by = Jo",
                "screen = tracking", "succeeded accept_invite = now",
            ])
        #expect(flow.screen == "tracking")
        #expect(flow.shown.title == "You're now tracking Ray")
    }

    /// Issue 47: the inviter logged in with their own invite and burned the code. The
    /// service spends nothing and says so; the flow shows its words on the dashboard.
    @Test func yourOwnInviteLeadsToTheDashboardWithTheServicesWords() {
        var flow = atAuth()
        flow.press(
            "I Have an Invite", effects: ["track screen_viewed", "save progress at invite"],
            changes: ["history = server › auth", "screen = invite"])
        fill(&flow, ["Pat", "pat@example.org", "long enough", "code"])
        flow.run(.intent(.activate), because: "Join, as the test above states")
        let registered = flow.state.calls.userCall?.id ?? 0
        flow.run(
            .callFinished(id: registered, result: .success(CallOutput(session: named("u_pat")))),
            because: "registered; the invite is accepted next")
        #expect(flow.screen == "accepting")
        let words = "You already track Ray. This invite was not used: it still works for the person you meant it for."
        let accepting = flow.state.calls.userCall?.id ?? 0
        flow.run(
            .callFinished(id: accepting, result: .failure(ServiceFailure(code: "conflict", message: words))), because: "the service refuses"
        )
        #expect(flow.screen == "dashboard")
        #expect(flow.state.message == .error(words))
    }

    @Test(arguments: [true, false]) func logInGoesToTheDashboardOnlyWithChildren(hasChildren: Bool) {
        var flow = atAuth()
        flow.press(
            "Log in", effects: ["track screen_viewed", "save progress at login"],
            changes: ["history = server › auth", "screen = login"])  // the spec's link under the buttons
        fill(&flow, ["jo@example.org", "long enough"])
        flow.press(
            "Log In", effects: ["save progress at login", "call log_in"],
            changes: ["call 2 = log_in (user's, from login)", "edited removed", "focus = 2"])
        flow.answer(
            .success(CallOutput(session: named())),
            effects: ["save session u_jo", "backfill analytics for u_jo", "track screen_viewed", "call load_children"],
            changes: [
                "call 2 removed",
                "call 3 = load_children (user's, from checking_children)",
                "context.password removed",
                "focus = 0",
                "history = login",
                "screen = checking_children",
                "session = u_jo named",
                "succeeded log_in = now",
            ])
        #expect(flow.screen == "checking_children")
        flow.answer(
            .success(CallOutput(values: ["children": .list(hasChildren ? ["Ray"] : [])])),
            effects: hasChildren
                ? [
                    "track screen_viewed", "save session u_jo", "track onboarding_complete", "save progress at dashboard",
                    "call load_children",
                ]
                : ["track screen_viewed", "save progress at add_baby"],
            changes: hasChildren
                ? [
                    "call 3 removed", "call 4 = load_children (background)", "context.children = [Ray]", "onboarding = complete",
                    "screen = dashboard",
                    "session = u_jo named complete", "succeeded load_children = now",
                ]
                : [
                    "call 3 removed", "context.birth_date = 2026-11-22", "context.children = []", "screen = add_baby",
                    "succeeded load_children = now",
                ])
        #expect(flow.screen == (hasChildren ? "dashboard" : "add_baby"))
    }

    @Test func theBirthDateDefaultsToTodayMovesByKeysAndNeverPassesToday() {
        var flow = atAuth()
        flow.press(
            "Create Account", effects: ["track screen_viewed", "save progress at register"],
            changes: ["history = server › auth", "screen = register"])
        fill(&flow, ["Jo", "jo@example.org", "long enough"])
        flow.press(
            "Create Account", effects: ["save progress at register", "save progress at register", "call register"],
            changes: [
                "call 2 = register (user's, from register), keyed",
                "context.idempotency_key.register = p-1795348800000-2",
                "edited removed",
                "focus = 3",
            ])
        flow.answer(
            .success(CallOutput(session: named())),
            effects: ["save session u_jo", "backfill analytics for u_jo", "track screen_viewed", "save progress at add_baby"],
            changes: [
                "call 2 removed",
                "context.birth_date = 2026-11-22",
                "context.idempotency_key.register removed",
                "context.password removed",
                "focus = 0",
                "history = register",
                "screen = add_baby",
                "session = u_jo named", "succeeded register = now",
            ])
        #expect(flow.screen == "add_baby")
        #expect(flow.text("birth_date") == "2026-11-22")
        flow.key(.focusNext, effects: ["save progress at add_baby"], changes: ["focus = 1"])
        flow.key(.right, effects: [], changes: [])
        #expect(flow.text("birth_date") == "2026-11-22", "no future dates")
        flow.key(.left, effects: [], changes: ["context.birth_date = 2026-11-21", "edited = now"])
        flow.key(.pageDown, effects: [], changes: ["context.birth_date = 2026-10-21"])
        flow.key(.home, effects: [], changes: ["context.birth_date = 2025-10-21"])
        #expect(flow.text("birth_date") == "2025-10-21")
        // Letters are ignored; digits typed replace the date, dashes added as they go.
        flow.type("x", effects: [], changes: [])
        #expect(flow.text("birth_date") == "2025-10-21")
        flow.type("202403", effects: [], changes: ["context.birth_date = 2024-03", "typing number = birth_date"])
        #expect(flow.text("birth_date") == "2024-03")
        flow.press(
            "Let's Go!", effects: ["save progress at add_baby"],
            changes: [
                "edited removed",
                "error.baby_name = Please enter your baby's name.",
                "error.birth_date = Enter the date as YYYY-MM-DD.",
                "focus = 0",
                "typing number removed",
            ])
        #expect(flow.state.form.errors["birth_date"] == "Enter the date as YYYY-MM-DD.")
    }

    @Test func aSecondLaunchAfterStepOneResumesAtStepTwo() {
        let auth = atAuth()
        var next = FlowDriver("babybasics")
        next.launch(
            progress: auth.savedProgress, defaults: ["server_url": .text("http://elsewhere")],
            effects: ["track screen_viewed", "save progress at auth"],
            changes: [
                "context.server_url = mock://local",
                "history = server",
                "phase = showing",
                "placeholder = p",
                "screen = auth",
                "since = now",
                "started = now", "starts run removed",
            ])
        #expect(next.screen == "auth")
        #expect(next.text("server_url") == "mock://local", "the saved URL wins over the default")
    }
}
