@testable import FlowEngine
import ScreenTable
import Testing

/// RuckTracker through the reducer: a guest is never signed in twice, guests cannot sign
/// out, and every failure leaves the session as it was.
@Suite struct RuckTrackerReducerTests {
    let engine = FlowEngine(flow: try! BuiltinFlows.load("rucktracker"))
    let now: Int64 = 1_800_000_000_000

    func session(_ user: String = "u_guest", anonymous: Bool = true, expiresIn: Int64 = 3600) -> Session {
        Session(
            userID: user, accessToken: "at-\(user)", accessExpiresAt: now / 1000 + expiresIn, refreshToken: "rt-\(user)",
            refreshExpiresAt: nil, isAnonymous: anonymous, createdAt: 0, lastAuthenticated: 0, onboardingComplete: true)
    }

    func launch(_ session: Session?) -> (FlowState, [Effect]) {
        var state = FlowState()
        let effects = engine.reduce(&state, .launched(Launch(session: session, progress: nil, placeholderUserID: "p")), now: now)
        return (state, effects)
    }

    func operations(_ effects: [Effect]) -> [Operation] {
        effects.compactMap { if case .call(let request) = $0 { request.operation } else { nil } }
    }

    func press(_ label: String, _ state: inout FlowState) -> [Effect] {
        let screen = engine.currentScreen(state)!
        let items = engine.focusables(of: screen, state)
        guard let index = screen.actions.firstIndex(where: { $0.label == label && engine.holds($0.when, state) }),
              let focus = items.firstIndex(of: .action(index)) else {
            Issue.record("no visible '\(label)' on \(screen.id)")
            return []
        }
        state.form.focus = focus
        return engine.reduce(&state, .intent(.activate), now: now)
    }

    func visibleLabels(_ state: FlowState) -> [String] {
        let screen = engine.currentScreen(state)!
        return screen.actions.filter { engine.holds($0.when, state) }.map(\.label)
    }

    @Test func firstLaunchMakesAGuestWithNoAuthWall() {
        var (state, effects) = launch(nil)
        #expect(state.screenID == "starting")
        #expect(operations(effects) == [.signInAnonymously])
        let after = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(CallOutput(session: session()))), now: now)
        #expect(state.screenID == "home")
        #expect(operations(after) == [.loadAccount])
    }

    @Test func aLaunchWithASessionNeverSignsInAgainEvenOffline() {
        let (state, effects) = launch(session())
        #expect(state.screenID == "home")
        #expect(!operations(effects).contains(.signInAnonymously))
        var (expired, renewing) = launch(session(expiresIn: -10))
        #expect(operations(renewing) == [.refreshSession])
        for _ in 0..<FlowEngine.renewalAttempts {
            renewing = engine.reduce(&expired, .callFinished(id: expired.calls.renewalID!, result: .failure(ServiceFailure(code: "network", message: "down"))), now: now)
            #expect(!operations(renewing).contains(.signInAnonymously))
        }
        #expect(expired.screenID == "home")
        #expect(expired.session?.userID == "u_guest")
    }

    @Test func guestsSeeAddEmailAndNoSignOut() {
        var (state, _) = launch(session())
        _ = press("Profile", &state)
        #expect(state.screenID == "guest_profile")
        #expect(visibleLabels(state).contains("Add Email to Sync"))
        #expect(!visibleLabels(state).contains("Sign Out"))
        #expect(engine.currentScreen(state)!.bullets == ["Your data is saved on this device. Add an email to sync."])
    }

    @Test func namedAccountsSeeSignOutBehindAWarning() {
        var (state, _) = launch(session("u_named", anonymous: false))
        _ = press("Profile", &state)
        #expect(state.screenID == "account_profile")
        _ = press("Sign Out", &state)
        #expect(state.screenID == "confirm_sign_out")
        #expect(engine.currentScreen(state)!.body.hasPrefix("Signing out will create a new guest account"))
        let effects = press("Sign Out", &state)
        #expect(operations(effects) == [.signOut])
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(CallOutput(session: session("u_new_guest")))), now: now)
        #expect(state.screenID == "home")
        #expect(state.session?.userID == "u_new_guest")
        #expect(state.session?.isAnonymous == true)
    }

    @Test func signingOutOfflineChangesNothing() {
        var (state, _) = launch(session("u_named", anonymous: false))
        _ = press("Profile", &state)
        _ = press("Sign Out", &state)
        _ = press("Sign Out", &state)
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .failure(ServiceFailure(code: "network", message: "down"))), now: now)
        #expect(state.screenID == "confirm_sign_out")
        #expect(state.session?.userID == "u_named")
        guard case .error(let text)? = state.message else { Issue.record("no message"); return }
        #expect(text.contains("nothing has changed"))
    }

    @Test func addEmailChecksFormatAndMatchAsYouType() {
        var (state, _) = launch(session())
        _ = press("Profile", &state)
        _ = press("Add Email to Sync", &state)
        #expect(state.screenID == "add_email")
        _ = engine.reduce(&state, .intent(.insert("ruck@ex")), now: now)
        #expect(state.form.errors["email"] == "Please enter a valid email address.")
        _ = engine.reduce(&state, .intent(.insert("ample.org")), now: now)
        #expect(state.form.errors["email"] == nil)
        _ = engine.reduce(&state, .intent(.focusNext), now: now)
        _ = engine.reduce(&state, .intent(.insert("march on!")), now: now)
        _ = engine.reduce(&state, .intent(.focusNext), now: now)
        _ = engine.reduce(&state, .intent(.insert("march")), now: now)
        #expect(state.form.errors["confirm_password"] == "Passwords do not match.")
        _ = engine.reduce(&state, .intent(.insert(" on!")), now: now)
        #expect(state.form.errors["confirm_password"] == nil)
        let effects = press("Secure My Account", &state)
        #expect(operations(effects) == [.linkEmail])
        // The password reaches the call, never the saved progress.
        let call = effects.compactMap { if case .call(let request) = $0 { request } else { nil } }.first
        #expect(call?.inputs == ["email": "ruck@example.org", "password": "march on!"])
        var named = session()
        named.isAnonymous = false
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(CallOutput(session: named))), now: now)
        #expect(state.screenID == "linked")
        #expect(state.session?.userID == "u_guest")
        #expect(state.context["password"] == nil && state.context["confirm_password"] == nil, "secrets are forgotten once used")
    }

    @Test func anEmailThatIsTakenKeepsTheGuestAndItsData() {
        var (state, _) = launch(session())
        state.context["rucks"] = .list(["5.0 km in 60 min"])
        _ = press("Profile", &state)
        _ = press("Add Email to Sync", &state)
        _ = engine.reduce(&state, .intent(.insert("taken@example.org")), now: now)
        _ = engine.reduce(&state, .intent(.focusNext), now: now)
        _ = engine.reduce(&state, .intent(.insert("long enough")), now: now)
        _ = engine.reduce(&state, .intent(.focusNext), now: now)
        _ = engine.reduce(&state, .intent(.insert("long enough")), now: now)
        _ = press("Secure My Account", &state)
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .failure(ServiceFailure(code: "conflict", message: "taken"))), now: now)
        #expect(state.screenID == "add_email")
        #expect(state.session?.userID == "u_guest")
        #expect(state.context["rucks"] == .list(["5.0 km in 60 min"]))
        guard case .error(let text)? = state.message else { Issue.record("no message"); return }
        #expect(text.contains("already belongs to another account"))
    }

    @Test func goProIsOfferedUntilBoughtAndThePromptDependsOnTheAccount() {
        var (guest, _) = launch(session())
        #expect(visibleLabels(guest).contains("Go Pro"))
        _ = press("Go Pro", &guest)
        _ = press("Buy Pro (simulated)", &guest)
        _ = engine.reduce(&guest, .callFinished(id: guest.calls.userCall!.id, result: .success(CallOutput(values: ["pro": .text("true")]))), now: now)
        #expect(guest.screenID == "post_purchase_guest")
        #expect(engine.currentScreen(guest)!.body.contains("Add an email to secure your premium subscription:"))
        #expect(!engine.currentScreen(guest)!.body.hasSuffix("..."), "whole sentences, not the spec's elision")
        // Quit on the prompt: the next launch brings it back, though onboarding is complete.
        var saved = FlowDriver("rucktracker")
        let progress = SavedProgress(screen: "post_purchase_guest", context: guest.context, onboardingComplete: true, startedAt: nil, placeholderUserID: "p", requiresSession: true)
        saved.launch(session: session(), progress: progress)
        #expect(saved.screen == "post_purchase_guest")
        _ = press("Skip", &guest)
        #expect(guest.screenID == "home")
        #expect(!visibleLabels(guest).contains("Go Pro"))

        var (member, _) = launch(session("u_named", anonymous: false))
        _ = press("Go Pro", &member)
        _ = press("Buy Pro (simulated)", &member)
        _ = engine.reduce(&member, .callFinished(id: member.calls.userCall!.id, result: .success(CallOutput(values: ["pro": .text("true")]))), now: now)
        #expect(member.screenID == "post_purchase_member")
        #expect(engine.currentScreen(member)!.body.contains("every device you sign in on"))
    }

    @Test func aRuckNeedsPositiveNumbers() {
        var (state, _) = launch(session())
        _ = press("Log a Ruck", &state)
        _ = engine.reduce(&state, .intent(.insert("-3")), now: now)
        #expect(state.form.errors["distance_km"] == "The distance must be a number above zero.")
        _ = engine.reduce(&state, .intent(.deleteBackward), now: now)
        _ = engine.reduce(&state, .intent(.deleteBackward), now: now)
        _ = engine.reduce(&state, .intent(.insert("7.5")), now: now)
        #expect(state.form.errors["distance_km"] == nil)
        let effects = press("Save", &state)
        #expect(operations(effects).isEmpty)
        #expect(state.form.errors["duration_min"] == "Enter how many minutes it took.")
    }

    /// The walk's rough edges: impossible numbers, a form that remembers a cancelled
    /// ruck, a password from another screen, and where Set Username returns to.
    @Test func theRuckFormTheLogInFormAndSetUsernameBehave() {
        var (state, _) = launch(session())
        _ = press("Log a Ruck", &state)
        _ = engine.reduce(&state, .intent(.insert("1e9")), now: now)
        #expect(state.form.errors["distance_km"] == "The distance must be a number above zero.", "1e9 is not a distance people type")
        _ = engine.reduce(&state, .intent(.setValue(.text("5"))), now: now)
        _ = engine.reduce(&state, .intent(.focusNext), now: now)
        _ = engine.reduce(&state, .intent(.insert("99999")), now: now)
        #expect(state.form.errors["duration_min"] == "A ruck is at most a week (10080 minutes).")
        _ = press("Cancel", &state)
        _ = press("Log a Ruck", &state)
        #expect(state.context["distance_km"] == nil && state.context["duration_min"] == nil, "Cancel leaves nothing behind")
        _ = press("Cancel", &state)

        // A password typed on Add Email never pre-fills Log In.
        _ = press("Profile", &state)
        _ = press("Add Email to Sync", &state)
        state.form.focus = 1
        _ = engine.reduce(&state, .intent(.insert("abc")), now: now)
        #expect(state.form.errors["password"] == "Password must be at least 8 characters.", "judged as typed, like the match")
        _ = press("Maybe Later", &state)
        _ = press("Log In", &state)
        #expect(state.screenID == "log_in")
        let prefilled = state.context["password"]?.text ?? ""
        #expect(prefilled.isEmpty)
        _ = press("Cancel", &state)

        // Set Username goes back to the Profile it came from.
        _ = press("Set Username", &state)
        _ = engine.reduce(&state, .intent(.insert("Rucky")), now: now)
        _ = press("Save", &state)
        _ = engine.reduce(&state, .callFinished(id: state.calls.userCall!.id, result: .success(CallOutput(values: ["username": .text("Rucky")]))), now: now)
        #expect(state.screenID == "guest_profile")
        #expect(state.message == .notice("Username saved."))
    }
}
