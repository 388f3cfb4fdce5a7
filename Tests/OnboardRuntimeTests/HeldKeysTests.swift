import EmbeddedMock
import FlowEngine
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import Testing

/// A screen that a background answer replaces is read before it is typed at, as one a
/// window's folder changed under it is. (Found by the seam explorer: on RuckTracker's
/// home, `p` for the profile landed in "Log in again"'s email field, which the background
/// renewal put up as the key was pressed.)
@Suite struct HeldKeysTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-held-\(UUID().uuidString)").path
    let clock = RuntimeClock()
    let service: InProcessTransport
    let flow: Flow

    init() throws {
        service = InProcessTransport(service: try OnboardService(database: try ServiceDatabase.inMemory(), clock: clock))
        flow = try BuiltinFlows.load("rucktracker")
    }

    /// A RuckTracker window drawn as a terminal draws it, its keys one by one.
    func window() -> FlowSession {
        let session = FlowSession.on(
            service, flow: flow, store: StateStore(stateDirectory: folder, flowID: "rucktracker"), clock: clock)
        session.holdsKeysWhenTheScreenChangesUnasked = true
        session.launch()
        return session
    }

    /// The guest adds an email, so the account's session can end (a guest's never does).
    func named(_ session: FlowSession) async throws {
        try await session.readMail { $0.screenID == "home" && !$0.isBusy }
        session.dispatch(.intent(.shortcut("p")))
        session.dispatch(.intent(.shortcut("a")))
        #expect(session.state.screenID == "add_email")
        for (index, text) in ["held@example.org", "march on!", "march on!"].enumerated() {
            if index > 0 { session.dispatch(.intent(.focusNext)) }
            session.dispatch(.intent(.insert(text)))
        }
        session.dispatch(.intent(.focusNext))
        session.dispatch(.intent(.activate))
        try await session.readMail { $0.screenID == "linked" }
        // The answer the person waited for holds no keys: Done is pressed at once.
        session.dispatch(.intent(.activate))
        #expect(session.state.screenID == "home")
    }

    @Test func keysTypedAtAScreenABackgroundAnswerReplacedAreLetGo() async throws {
        let session = window()
        try await named(session)
        try await session.readMail { !$0.isBusy && $0.calls.entries.isEmpty }

        // A month on, the account's session has ended: the renewal made in the background
        // finds it so, and "Log in again" replaces the home screen the person was reading.
        clock.offsetSeconds += 31 * 86_400
        session.dispatch(.clockMoved)
        try await session.readMail { $0.screenID == "session_ended" }
        #expect(session.state.screenID == "session_ended")

        // `p`, meant for Profile on the home screen, is not typed into the email field.
        let email = session.state.context["email"]
        session.dispatch(.intent(.insert("p")))
        #expect(session.state.context["email"] == email, "\(String(describing: session.state.context["email"]))")
        #expect(session.state.screenID == "session_ended")
        // A paste in that moment is not put in either, and the person is told so: it is
        // work they would not know was gone.
        #expect(!session.state.warnings.contains(FlowSession.pasteLetGoNote))
        session.dispatch(.intent(.paste("pasted@example.org")))
        #expect(session.state.context["email"] == email)
        #expect(session.state.warnings.contains(FlowSession.pasteLetGoNote), "\(session.state.warnings)")

        // Once the person has had a moment to read the new screen, keys are theirs again.
        try await Task.sleep(for: FlowSession.keysMeantForTheScreenBefore + .milliseconds(100))
        session.dispatch(.intent(.focusNext))
        session.dispatch(.intent(.insert("march on!")))
        #expect(session.state.form.focus == 1)
        #expect(session.state.context["password"]?.text == "march on!")
    }

    @Test func answersToQuestionsPrintedOnceAreNotHeld() async throws {
        let session = window()
        session.holdsKeysWhenTheScreenChangesUnasked = false
        try await named(session)
        try await session.readMail { !$0.isBusy && $0.calls.entries.isEmpty }
        clock.offsetSeconds += 31 * 86_400
        session.dispatch(.clockMoved)
        try await session.readMail { $0.screenID == "session_ended" }
        session.dispatch(.intent(.focusNext))
        #expect(session.state.form.focus == 1, "line prompts answer the question they printed (LinePrompter drops one a poll overtook)")
    }
}
