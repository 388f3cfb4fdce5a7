@testable import FlowEngine
import ScreenTable
import Testing

/// RuckTracker through the reducer: a guest is never signed in twice, guests cannot sign
/// out, and every failure leaves the session as it was.
@Suite struct RuckTrackerReducerTests {
    static let start: Int64 = 1_800_000_000_000

    func session(_ user: String = "u_guest", anonymous: Bool = true, expiresIn: Int64 = 3600) -> Session {
        Session(
            userID: user, accessToken: "at-\(user)", accessExpiresAt: Self.start / 1000 + expiresIn, refreshToken: "rt-\(user)",
            refreshExpiresAt: nil, isAnonymous: anonymous, createdAt: 0, lastAuthenticated: 0, onboardingComplete: true)
    }

    /// Launched with `session` (Home loads the account in the background).
    func story(_ session: Session?) -> FlowDriver {
        var flow = FlowDriver("rucktracker", now: Self.start, exhaustive: true)
        if let session {
            flow.launch(session: session, effects: ["save progress at home", "call load_account"])
        }
        return flow
    }

    /// The buttons shown now.
    func buttons(_ flow: FlowDriver) -> [String] {
        flow.shown.buttons.map(\.label)
    }

    let networkDown = ServiceFailure(code: "network", message: "down")

    @Test func firstLaunchMakesAGuestWithNoAuthWall() {
        var flow = story(nil)
        flow.launch(effects: ["save progress at starting", "call sign_in_anonymously"])
        #expect(flow.screen == "starting")
        flow.answer(.success(CallOutput(session: session())), effects: ["backfill analytics for u_guest", "save session u_guest", "save progress at home", "call load_account"])
        #expect(flow.screen == "home")
    }

    /// Issue 30: a kill during "Getting your tracker ready..." made a second guest on the
    /// relaunch (3 of 3): the first launch's key is on disk before its call leaves.
    @Test func aKillBeforeTheFirstGuestAnswersMakesNoSecondGuest() throws {
        var flow = story(nil)
        let first = flow.launch(effects: ["save progress at starting", "call sign_in_anonymously"])
        let key = try #require(FlowDriver.calls(first).first?.idempotencyKey)
        let saved = try #require(flow.savedProgress)

        var relaunched = story(nil)
        relaunched.now += 5000
        let again = relaunched.launch(progress: saved, placeholder: "other", effects: ["call sign_in_anonymously"])
        #expect(relaunched.screen == "starting")
        #expect(FlowDriver.calls(again).first?.idempotencyKey == key, "the same intent: the service answers with the first guest")
    }

    /// Issue 30: a first launch offline was an error wall, though the spec promises no
    /// authentication wall and an offline mode. It starts as a guest on this device, under
    /// the key its first try sent, and says so; the service's own failure still stands.
    @Test func aFirstLaunchOfflineStartsAGuestOnThisDevice() throws {
        var flow = story(nil)
        let first = flow.launch(effects: ["save progress at starting", "call sign_in_anonymously"])
        let key = try #require(FlowDriver.calls(first).first?.idempotencyKey)
        let placeholder = flow.state.placeholderUserID
        let home = flow.answer(.failure(networkDown), effects: [
            "backfill analytics for \(placeholder)", "save session \(placeholder)", "save progress at home", "call load_account",
        ])
        #expect(flow.screen == "home")
        let guest = try #require(flow.state.session)
        #expect(guest.isOnThisDeviceOnly && guest.registrationKey == key && guest.isAnonymous, "registered later under the first try's key")
        #expect(flow.shown.warnings.first?.hasPrefix("RuckTracker could not reach its service") == true)
        #expect(FlowDriver.calls(home).first?.session?.registrationKey == key, "Home's load goes as the guest on this device")
        #expect(flow.text(FlowEngine.idempotencyKeyName(.signInAnonymously)) == nil, "the key travels with the guest now")
        // Nothing to renew: it has no tokens until the service knows it.
        flow.now += 3 * 86_400_000
        flow.send(.tick, effects: [])
        // Nor with QA's clock set decades back (`Int64.max` minus a negative time overflowed).
        let later = flow.now
        flow.now = -50 * 365 * 86_400_000
        flow.send(.tick, effects: [])
        flow.now = later
        // Registered by a call that then failed: the guest is the service's from now on.
        flow.answer(.loadAccount, .failure(ServiceFailure(code: "server_error", message: "no", session: session("u_registered"))), effects: ["save session u_registered", "backfill analytics for u_registered"])
        #expect(flow.state.session?.userID == "u_registered" && flow.state.session?.isOnThisDeviceOnly == false)

        var failed = story(nil)
        failed.launch(effects: ["save progress at starting", "call sign_in_anonymously"])
        failed.fail("server_error", effects: [])
        #expect(failed.screen == "start_failed")
        #expect(failed.state.session == nil)
    }

    @Test func aLaunchWithASessionNeverSignsInAgainEvenOffline() {
        let flow = story(session())
        #expect(flow.screen == "home")
        var expired = story(nil)
        expired.launch(session: session(expiresIn: -10), effects: ["call refresh_session"])
        for _ in 1..<FlowEngine.renewalAttempts {
            expired.answer(.refreshSession, .failure(networkDown), effects: ["call refresh_session"])
        }
        expired.answer(.refreshSession, .failure(networkDown), effects: ["save progress at home", "call load_account"])
        #expect(expired.screen == "home")
        #expect(expired.state.session?.userID == "u_guest")
    }

    /// Issue 30: a guest whose renewal the service refused became a new, empty guest,
    /// its rucks out of reach for good. It keeps its id, session and rucks, is told, and
    /// the renewal is tried again later.
    @Test func aGuestTheServiceWillNotRenewKeepsItsIdentityAndRucks() throws {
        var flow = FlowDriver("rucktracker", now: Self.start)
        let saved = SavedProgress(
            screen: "home", context: ["rucks": .list(["5.5 km in 60 min · 2027-01-15 08:00:00"])], onboardingComplete: true,
            startedAt: nil, placeholderUserID: "p", requiresSession: true)
        flow.launch(session: session(expiresIn: -10), progress: saved)
        let effects = flow.answer(.refreshSession, .failure(ServiceFailure(code: "unauthorized", message: "refused")))
        #expect(flow.screen == "home")
        #expect(flow.state.session?.userID == "u_guest")
        #expect(!effects.contains(.saveSession(nil)) && !effects.contains(.saveProgress(nil)), "nothing forgotten")
        #expect(!FlowDriver.calls(effects).contains { $0.operation == .signInAnonymously }, "no new guest")
        #expect(flow.shown.warnings.first?.contains("could not be renewed") == true)
        #expect(flow.text("rucks") == nil || flow.state.context["rucks"]?.list?.count == 1)
        flow.now += FlowEngine.renewalRetryDelay
        #expect(FlowDriver.calls(flow.send(.tick)).map(\.operation) == [.refreshSession], "tried again later")
    }

    /// Issue 30: a named Pro account unused for 31 days became a guest offered Go Pro
    /// again. It is asked to log in again, its email filled in, and gets its data back.
    @Test func aNamedAccountWhoseSessionEndedIsAskedToLogInAgain() throws {
        var flow = FlowDriver("rucktracker", now: Self.start)
        var named = session("u_named", anonymous: false)
        named.refreshExpiresAt = Self.start / 1000 - 1
        let saved = SavedProgress(
            screen: "home", context: ["email": .text("so@example.com"), "pro": .text("true")], onboardingComplete: true,
            startedAt: nil, placeholderUserID: "p", requiresSession: true)
        let effects = flow.launch(session: named, progress: saved)
        #expect(flow.screen == "session_ended")
        #expect(flow.text("email") == "so@example.com", "filled in")
        #expect(flow.text("pro") == nil)
        #expect(!FlowDriver.calls(effects).contains { $0.operation == .signInAnonymously }, "no guest made behind their back")
        #expect(flow.shown.body.contains("so@example.com"))
        let buttons = buttons(flow)
        #expect(buttons.contains("Log In") && buttons.contains("Continue as Guest"))
    }

    /// A background load that brings a corrected session (a link whose answer was lost)
    /// is taken: the profile then shows the signed-in account, not a guest with an email.
    @Test func aSessionTheHomeLoadCorrectsIsKept() {
        var flow = FlowDriver("rucktracker", now: Self.start)
        flow.launch(session: session())
        let named = session(anonymous: false)
        let effects = flow.answer(.loadAccount, .success(CallOutput(session: named, values: ["email": .text("lost@example.org"), "account_status": .text("Signed In")])))
        #expect(effects.contains(.saveSession(flow.state.session)))
        #expect(flow.state.session?.isAnonymous == false)
        flow.press("Profile")
        #expect(flow.screen == "account_profile")
    }

    @Test func guestsSeeAddEmailAndNoSignOut() {
        var flow = story(session())
        flow.press("Profile", effects: ["save progress at guest_profile"])
        #expect(flow.screen == "guest_profile")
        #expect(buttons(flow).contains("Add Email to Sync"))
        #expect(!buttons(flow).contains("Sign Out"))
        #expect(flow.shown.bullets == ["Your data is saved on this device. Add an email to sync."])
    }

    @Test func namedAccountsSeeSignOutBehindAWarning() {
        var flow = story(session("u_named", anonymous: false))
        flow.press("Profile", effects: ["save progress at account_profile"])
        #expect(flow.screen == "account_profile")
        flow.press("Sign Out", effects: ["save progress at confirm_sign_out"])
        #expect(flow.screen == "confirm_sign_out")
        #expect(flow.shown.body.hasPrefix("Signing out will create a new guest account"))
        flow.press("Sign Out", effects: ["save progress at confirm_sign_out", "call sign_out"])
        flow.answer(.success(CallOutput(session: session("u_new_guest"))), effects: ["save session u_new_guest", "save progress at home", "call load_account"])
        #expect(flow.screen == "home")
        #expect(flow.state.session?.userID == "u_new_guest")
        #expect(flow.state.session?.isAnonymous == true)
    }

    @Test func signingOutOfflineChangesNothing() {
        var flow = story(session("u_named", anonymous: false))
        flow.press("Profile", effects: ["save progress at account_profile"])
        flow.press("Sign Out", effects: ["save progress at confirm_sign_out"])
        flow.press("Sign Out", effects: ["save progress at confirm_sign_out", "call sign_out"])
        flow.answer(.failure(networkDown), effects: ["save progress at confirm_sign_out"])
        #expect(flow.screen == "confirm_sign_out")
        #expect(flow.state.session?.userID == "u_named")
        guard case .error(let text)? = flow.state.message else { Issue.record("no message"); return }
        #expect(text.contains("nothing has changed"))
    }

    @Test func addEmailChecksFormatAndMatchAsYouType() throws {
        var flow = story(session())
        flow.press("Profile", effects: ["save progress at guest_profile"])
        flow.press("Add Email to Sync", effects: ["save progress at add_email"])
        #expect(flow.screen == "add_email")
        flow.type("ruck@ex", effects: [])
        #expect(flow.state.form.errors["email"] == "Please enter a valid email address.")
        flow.type("ample.org", effects: [])
        #expect(flow.state.form.errors["email"] == nil)
        flow.key(.focusNext, effects: ["save progress at add_email"])
        flow.type("march on!", effects: [])
        flow.key(.focusNext, effects: ["save progress at add_email"])
        flow.type("march", effects: [])
        #expect(flow.state.form.errors["confirm_password"] == "Passwords do not match.")
        flow.type(" on!", effects: [])
        #expect(flow.state.form.errors["confirm_password"] == nil)
        let effects = flow.press("Secure My Account", effects: ["save progress at add_email", "call link_email"])
        // The password reaches the call, never the saved progress.
        let call = try #require(FlowDriver.calls(effects).first)
        #expect(call.inputs == ["email": "ruck@example.org", "password": "march on!"])
        #expect(flow.savedProgress?.context["password"] == nil)
        var named = session()
        named.isAnonymous = false
        flow.answer(.success(CallOutput(session: named)), effects: ["save session u_guest", "save progress at linked"])
        #expect(flow.screen == "linked")
        #expect(flow.state.session?.userID == "u_guest")
        #expect(flow.state.context["password"] == nil && flow.state.context["confirm_password"] == nil, "secrets are forgotten once used")
    }

    /// Issue 31 (ASVS 2.1.7): the service refuses the most common passwords; the form
    /// says so as the password is typed, with the service's words, and submits nothing.
    @Test func aCommonPasswordIsRefusedAsItIsTyped() {
        var flow = story(session())
        flow.press("Profile", effects: ["save progress at guest_profile"])
        flow.press("Add Email to Sync", effects: ["save progress at add_email"])
        flow.type("ruck@example.org", effects: [])
        flow.key(.focusNext, effects: ["save progress at add_email"])
        flow.type("Password1", effects: [])
        let common = "This password is one of the most common, so it would be guessed first. Please choose another."
        #expect(flow.state.form.errors["password"] == common)
        flow.key(.focusNext, effects: ["save progress at add_email"])
        flow.type("Password1", effects: [])
        flow.press("Secure My Account", effects: [])
        #expect(flow.screen == "add_email" && flow.state.form.errors["password"] == common)
        flow.focus("password")
        flow.type("!", effects: [])
        #expect(flow.state.form.errors["password"] == nil, "one character more and it is not on the list")
    }

    @Test func anEmailThatIsTakenKeepsTheGuestAndItsData() {
        var flow = story(session())
        flow.answer(.loadAccount, .success(CallOutput(values: ["rucks": .list(["5.0 km in 60 min"])])), effects: ["save progress at home"])
        flow.press("Profile", effects: ["save progress at guest_profile"])
        flow.press("Add Email to Sync", effects: ["save progress at add_email"])
        flow.type("taken@example.org", effects: [])
        flow.key(.focusNext, effects: ["save progress at add_email"])
        flow.type("long enough", effects: [])
        flow.key(.focusNext, effects: ["save progress at add_email"])
        flow.type("long enough", effects: [])
        flow.press("Secure My Account", effects: ["save progress at add_email", "call link_email"])
        flow.fail("conflict", "taken", effects: ["save progress at add_email"])
        #expect(flow.screen == "add_email")
        #expect(flow.state.session?.userID == "u_guest")
        #expect(flow.state.context["rucks"] == .list(["5.0 km in 60 min"]))
        guard case .error(let text)? = flow.state.message else { Issue.record("no message"); return }
        #expect(text.contains("already belongs to another account"))
    }

    @Test func goProIsOfferedUntilBoughtAndThePromptDependsOnTheAccount() throws {
        var guest = story(session())
        #expect(buttons(guest).contains("Go Pro"))
        guest.press("Go Pro", effects: ["save progress at pro_offer"])
        guest.press("Buy Pro (simulated)", effects: ["call purchase_pro"])
        guest.answer(.success(CallOutput(values: ["pro": .text("true")])), effects: ["save progress at post_purchase_guest"])
        #expect(guest.screen == "post_purchase_guest")
        #expect(guest.shown.body.contains("Add an email to secure your premium subscription:"))
        #expect(!guest.shown.body.hasSuffix("..."), "whole sentences, not the spec's elision")
        // Quit on the prompt: the next launch brings it back, though onboarding is complete.
        var relaunched = story(nil)
        relaunched.launch(session: session(), progress: guest.savedProgress, effects: ["save progress at post_purchase_guest"])
        #expect(relaunched.screen == "post_purchase_guest")
        guest.press("Skip", effects: ["save progress at home", "call load_account"])
        #expect(guest.screen == "home")
        #expect(!buttons(guest).contains("Go Pro"))

        var member = story(session("u_named", anonymous: false))
        member.press("Go Pro", effects: ["save progress at pro_offer"])
        member.press("Buy Pro (simulated)", effects: ["call purchase_pro"])
        member.answer(.success(CallOutput(values: ["pro": .text("true")])), effects: ["save progress at post_purchase_member"])
        #expect(member.screen == "post_purchase_member")
        #expect(member.shown.body.contains("every device you sign in on"))
    }

    @Test func aRuckNeedsPositiveNumbers() {
        var flow = story(session())
        flow.press("Log a Ruck", effects: ["save progress at log_ruck"])
        flow.type("-3", effects: [])
        #expect(flow.state.form.errors["distance_km"] == "The distance must be a number above zero.")
        flow.key(.deleteBackward, times: 2, effects: [])
        flow.type("7.5", effects: [])
        #expect(flow.state.form.errors["distance_km"] == nil)
        flow.press("Save", effects: [])
        #expect(flow.state.form.errors["duration_min"] == "Enter how many minutes it took.")
    }

    /// The walk's rough edges: impossible numbers, a form that remembers a cancelled
    /// ruck, a password from another screen, and where Set Username returns to.
    @Test func theRuckFormTheLogInFormAndSetUsernameBehave() {
        var flow = story(session())
        flow.press("Log a Ruck", effects: ["save progress at log_ruck"])
        flow.type("1e9", effects: [])
        #expect(flow.state.form.errors["distance_km"] == "The distance must be a number above zero.", "1e9 is not a distance people type")
        flow.key(.setValue(.text("5")), effects: [])
        flow.key(.focusNext, effects: ["save progress at log_ruck"])
        flow.type("99999", effects: [])
        #expect(flow.state.form.errors["duration_min"] == "A ruck is at most a week (10080 minutes).")
        flow.press("Cancel", effects: ["save progress at home", "call load_account"])
        flow.press("Log a Ruck", effects: ["save progress at log_ruck"])
        #expect(flow.state.context["distance_km"] == nil && flow.state.context["duration_min"] == nil, "Cancel leaves nothing behind")
        flow.press("Cancel", effects: ["save progress at home", "call load_account"])

        // A password typed on Add Email never pre-fills Log In.
        flow.press("Profile", effects: ["save progress at guest_profile"])
        flow.press("Add Email to Sync", effects: ["save progress at add_email"])
        flow.type("abc", into: "password", effects: [])
        #expect(flow.state.form.errors["password"] == "Password must be at least 8 characters.", "judged as typed, like the match")
        flow.press("Maybe Later", effects: ["save progress at guest_profile"])
        flow.press("Log In", effects: ["save progress at log_in"])
        #expect(flow.screen == "log_in")
        #expect((flow.text("password") ?? "").isEmpty)
        flow.press("Cancel", effects: ["save progress at guest_profile"])

        // Set Username goes back to the Profile it came from.
        flow.press("Set Username", effects: ["save progress at set_username"])
        // Issue 32: what the service would never take said "try again"; the rule is said
        // as it is typed, and blanks are no name.
        flow.type("🙂🙂 日本", effects: [])
        #expect(flow.state.form.errors["username"] == "A username can hold letters, digits and spaces only.")
        flow.key(.edit(.deleteToStart), effects: [])
        flow.type("   ", effects: [])
        flow.press("Save", effects: [])
        #expect(flow.state.form.errors["username"] == "A username needs 2 to 30 characters.")
        flow.focus("username")
        flow.key(.edit(.deleteToStart), effects: [])
        flow.type("Rucky", effects: [])
        flow.press("Save", effects: ["call set_username"])
        flow.answer(.success(CallOutput(values: ["username": .text("Rucky")])), effects: ["save progress at guest_profile"])
        #expect(flow.screen == "guest_profile")
        #expect(flow.state.message == .notice("Username saved."))
    }
}
