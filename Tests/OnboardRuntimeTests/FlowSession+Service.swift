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
}
