import EmbeddedMock
import FlowEngine
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient
import TerminalUI
import Testing

/// The run loop when its terminal goes away without a SIGHUP reaching it (a parent that
/// caught the signal): it must end as a hangup, keeping what was typed, not spin on a
/// descriptor that is always ready.
@Suite struct FlowRunnerTests {
    /// A terminal whose input has hung up: the read end of a pipe with no writer.
    final class HungUpTerminal: TerminalDevice {
        let size = (width: 80, height: 24)
        let inputDescriptor: Int32
        var draws = 0

        init() {
            var ends: [Int32] = [0, 0]
            pipe(&ends)
            close(ends[1])
            inputDescriptor = ends[0]
        }

        deinit { close(inputDescriptor) }

        func draw(_ frame: Frame) { draws += 1 }
        func readInputs() -> [TerminalInput] { [] }
        func suspend() {}
        func invalidate() {}
    }

    @Test func aTerminalThatHangsUpEndsTheRunAsSIGHUP() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-hup-\(UUID().uuidString)").path
        let store = StateStore(stateDirectory: folder, flowID: "oklah")
        let service = InProcessTransport(service: try OnboardService(database: try ServiceDatabase.inMemory()))
        let session = FlowSession(
            engine: FlowEngine(flow: try BuiltinFlows.load("oklah")), store: store,
            operations: OperationRunner(service: service, flowID: "oklah"), clock: RuntimeClock(), mailbox: Mailbox())
        let terminal = HungUpTerminal()
        let runner = FlowRunner(session: session, renderer: Renderer(), terminal: terminal)
        nonisolated(unsafe) let loop = runner
        let ending = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: loop.run()) }.start()
        }
        #expect(ending == .signal(SIGHUP))
        #expect(terminal.draws == 1, "the first screen, then the hangup")
        #expect(store.load().progress?.screen == "privacy", "the progress is saved")
    }
}
