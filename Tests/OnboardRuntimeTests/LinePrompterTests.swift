import EmbeddedMock
import FlowEngine
import FlowFiles
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient
import Testing

/// Accessible mode's line prompts on a real run (engine, embedded mock, state files),
/// with the answers given as lines and the transcript read back.
@Suite struct LinePrompterTests {
    /// Runs `yaml` with these answers on its own thread, as the real UI thread is (the
    /// calls need the concurrency pool free); returns the transcript and the ending.
    func transcript(
        _ yaml: String, answers: [String], faults: FaultSwitchboard = FaultSwitchboard(), between: ((Int) -> Void)? = nil
    ) async throws -> (text: String, ending: FlowEnding) {
        let flow = try FlowLoader.load(yaml: yaml, file: "test.yaml").get()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-lines-\(UUID().uuidString)").path
        let store = StateStore(stateDirectory: folder, flowID: flow.id)
        let mock = InProcessTransport(service: try OnboardService(database: try ServiceDatabase.inMemory()))
        let session = FlowSession(
            engine: FlowEngine(flow: flow), store: store,
            operations: OperationRunner(service: FaultInjectingService(wrapping: mock, switchboard: faults), flowID: flow.id),
            clock: RuntimeClock(), mailbox: Mailbox())
        var remaining = answers[...]
        var text = ""
        var asked = 0
        let prompter = LinePrompter(
            session: session,
            readLine: { _ in
                asked += 1
                between?(asked)
                return remaining.popFirst()
            }, write: { text += $0 }, echo: true)
        nonisolated(unsafe) let loop = prompter
        let ending = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: loop.run()) }.start()
        }
        return (text, ending)
    }

    static let checklist = """
        id: setup
        title: Setup
        entry:
          first_launch: tasks
        screens:
          - id: tasks
            kind: checklist
            title: Getting ready
            tasks:
              - label: Service check
                call: health
            actions:
              - label: Finish
                quit: true
        """

    @Test func aFailedSetupStepIsOfferedAgainAndThenTheFlowGoesOn() async throws {
        let faults = FaultSwitchboard([.network])
        // The first answer retries while the network is still down; before the second,
        // it comes back.
        let run = try await transcript(Self.checklist, answers: ["", "", "1"], faults: faults) { asked in
            if asked == 2 { faults.toggle(.network) }
        }
        #expect(run.text.contains("  Service check: failed:"))
        #expect(run.text.contains("Press Enter to try again, or type q to quit: \n"))
        #expect(run.text.contains("  Service check: done"))
        #expect(run.text.contains("  1) Finish\n"))
        #expect(run.ending == .quit)
    }

    static let retry = """
        id: retry
        title: Retry
        entry:
          first_launch: start
        screens:
          - id: start
            kind: info
            title: Start
            actions:
              - label: Check
                call: health
                on:
                  success: done
          - id: done
            kind: info
            title: Done
            complete: true
        """

    /// Issue 32: a choice of one asked "Enter a number between 1 and 1", and a Try Again
    /// that failed the same way a second time printed nothing: the screen had not changed.
    @Test func everyFailedTryIsSaidAndAChoiceOfOneIsPlain() async throws {
        let run = try await transcript(Self.retry, answers: ["1", "1", "1"], faults: FaultSwitchboard([.network]))
        let errors = run.text.components(separatedBy: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 3, "one error line per failed try:\n\(run.text)")
        #expect(!run.text.contains("between 1 and 1"))
    }

    @Test func qQuitsAFailedSetupAndTheEndOfInputSavesAndQuits() async throws {
        let quit = try await transcript(Self.checklist, answers: ["q"], faults: FaultSwitchboard([.network]))
        #expect(quit.ending == .quit)
        #expect(!quit.text.contains("Service check: done"))
        let ended = try await transcript(Self.checklist, answers: [], faults: FaultSwitchboard([.network]))
        #expect(ended.text.hasSuffix("End of input; your progress is saved.\n"))
    }

    static let answers = """
        id: answers
        title: Answers
        entry:
          first_launch: start
        screens:
          - id: start
            kind: info
            title: Start
            actions:
              - label: Go
                go: about
          - id: about
            kind: form
            title: About you
            back: true
            fields:
              - id: full_name
                label: Full legal name
                rules:
                  - rule: min_length
                    value: 2
                    message: Please enter your full legal name
              - id: display_name
                label: Display name
              - id: seeking
                kind: multi
                label: Interested in
                options: [Women, Men, Everyone]
                exclusive: Everyone
                rules:
                  - rule: min_selected
                    value: 1
                    message: Pick at least one.
            actions:
              - label: Save
                quit: true
              - label: Back
                back: true
        """

    /// Issue 47's walk of accessible mode: each answer is checked whole when given (the
    /// full name before the display name is asked); a refused answer is not offered as the
    /// one to keep; an exclusive option stands alone as on the full screen; no pick says
    /// the flow's own message; a screen with a Back button of its own lists one Back.
    @Test func eachAnswerIsCheckedWhenGivenAndSaidPlainly() async throws {
        let run = try await transcript(Self.answers, answers: ["1", "A", "Ann Lee", "annie", "1,3", "", "2", "1"])
        let text = run.text
        #expect(
            text.contains(
                "Full legal name: A\nFull legal name: Please enter your full legal name\nFull legal name (refused: A): Ann Lee\n"),
            "\(text)")
        #expect(text.contains("Full legal name (refused: A): Ann Lee\nDisplay name: annie\n"), "checked before the next question: \(text)")
        #expect(text.contains("Interested in: Everyone goes by itself: pick it alone, or the others without it."), "\(text)")
        #expect(text.contains("Interested in: Pick at least one."), "\(text)")
        #expect(text.components(separatedBy: ") Back\n").count == 2, "one Back: \(text)")
        #expect(run.ending == .quit)
    }
}
