import FlowEngine
import OnboardRuntime
import ScreenTable
import ServiceAPI

extension FlowSession {
    /// A run of `flow` on `service` (the embedded mock, maybe behind faults), its session
    /// file in `store`, as the tests that drive a whole runner build it.
    static func on(_ service: any AuthService, flow: Flow, store: StateStore, clock: RuntimeClock) -> FlowSession {
        FlowSession(
            engine: FlowEngine(flow: flow), store: store,
            operations: OperationRunner(service: service, flowID: flow.id, sessionFile: store.sessionFile, clock: clock),
            clock: clock, mailbox: Mailbox())
    }

    /// Reads the answers until `done` holds, for at most ten seconds. (It sleeps rather
    /// than blocks, so the calls' tasks have the threads to run on.)
    func readMail(until done: (FlowState) -> Bool) async throws {
        for _ in 0..<200 where !done(state) {
            try await Task.sleep(for: .milliseconds(50))
            receiveMail()
        }
    }
}
