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
import Synchronization
import Testing

/// Issue 34 in accessible mode: a sign-in approved in a browser goes on by itself while
/// the numbered question waits at a terminal, as it does on the drawn screen; nothing
/// typed is needed, and what is typed still answers.
@Suite struct LinePrompterPollTests {
    /// Notes the user code the service gave, as the person reads it off the screen.
    final class CodeReader: AuthServiceDecorator, Sendable {
        let base: any AuthService
        let code = Mutex<String?>(nil)
        init(_ base: any AuthService) { self.base = base }

        func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T {
            let answer = try await call()
            if let started = answer as? DeviceAuthorization { code.withLock { $0 = started.userCode } }
            return answer
        }
    }

    static let yaml = """
        id: poll
        title: Poll
        entry: { first_launch: start }
        screens:
          - id: start
            kind: info
            title: Start
            actions:
              - label: Sign In
                set: { provider: google }
                call: start_social_device
                on: { success: waiting, error: {} }
          - id: waiting
            kind: info
            title: Approve in your browser
            body: "Open {verification_uri} and enter {user_code}."
            poll:
              call: poll_social_device
              every: poll_interval
              until: device_expires_at
              on:
                success: done
                access_denied: { go: start }
                expired_token: { message: "The code expired." }
                error: {}
            actions:
              - label: Cancel
                go: start
          - id: done
            kind: info
            title: Done
            complete: true
            actions:
              - label: Close
                quit: true
        """

    @Test func approvedInTheBrowserTheQuestionIsOvertakenByTheNextScreen() async throws {
        var settings = ServiceSettings()
        settings.devicePollInterval = 1
        let service = try OnboardService(database: try ServiceDatabase.inMemory(), settings: settings)
        let reader = CodeReader(InProcessTransport(service: service))
        let flow = try FlowLoader.load(yaml: Self.yaml, file: "poll.yaml").get()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-lines-\(UUID().uuidString)").path
        let session = FlowSession(
            engine: FlowEngine(flow: flow), store: StateStore(stateDirectory: folder, flowID: flow.id),
            operations: OperationRunner(service: reader, flowID: flow.id), clock: RuntimeClock(), mailbox: Mailbox())
        // A terminal where nothing is typed while the code screen waits.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let answers = Mutex(["1", "1"])
        let text = Mutex("")
        let prompter = LinePrompter(
            session: session, readLine: { _ in answers.withLock { $0.isEmpty ? nil : $0.removeFirst() } },
            write: { line in text.withLock { $0 += line } }, echo: true, input: ends[0])
        nonisolated(unsafe) let loop = prompter
        let running = Task.detached {
            await withCheckedContinuation { continuation in Thread { continuation.resume(returning: loop.run()) }.start() }
        }
        // The person approves in the browser once the code is on the screen.
        var code: String?
        for _ in 0..<200 where code == nil {
            try await Task.sleep(for: .milliseconds(50))
            code = reader.code.withLock { $0 }
        }
        let shown = try #require(code)
        #expect(try await service.finishDeviceSignIn(userCode: shown, identity: DeviceIdentity(subject: "g-ana", email: "ana@example.org")))
        let ending = await running.value
        let transcript = text.withLock { $0 }
        #expect(ending == .quit, "\(ending)")
        #expect(transcript.contains("== Approve in your browser ==") && transcript.contains(shown))
        let afterCode = try #require(transcript.range(of: "== Approve in your browser =="))
        #expect(transcript[afterCode.upperBound...].contains("== Done =="), "the next screen came by itself:\n\(transcript)")
        #expect(answers.withLock { $0.isEmpty }, "one answer for Sign In, one for Close: none for the code screen")
    }
}
