import ScreenTable

/// The pure reducer every flow runs on: (state, event, now) -> (state, effects).
/// It performs no I/O; the runtime carries out the effects and feeds results back.
///
/// Its parts live one to a file: the session's life (SessionLifecycle, SessionRenewal),
/// moving between screens (Navigation), calls and their results (CallLifecycle over the
/// CallTable; a screen's poll in Polling), keys on a screen (Input, TextFieldEditing
/// over the LineEditor, and one file per field kind in FieldKinds/), checklists
/// (Checklist), the flow's rules (Rules, Validation) and analytics (Analytics). The
/// values (FlowContext) and the form (FormState) change only through operations named
/// for what happened; the person's own records leave through PersonalWrites, so what
/// `reduce` returns is what its parts emitted, never corrected after.
public struct FlowEngine: Sendable {
    public let flow: Flow
    /// Silent renewal attempts on launch before giving up for now.
    public static let renewalAttempts = 3
    /// How long to wait before trying again a renewal the network prevented (ms).
    public static let renewalRetryDelay: Int64 = 60_000

    let secretKeys: Set<String>

    public init(flow: Flow) {
        self.flow = flow
        secretKeys = flow.typedSecretKeys
    }

    func currentScreen(_ state: FlowState) -> Screen? {
        state.screenID.flatMap(flow.screen)
    }

    /// Applies one event at time `now` (ms since 1970) and returns the effects to run.
    public func reduce(_ state: inout FlowState, _ event: FlowEvent, now: Int64) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .launched(let launch):
            launchFlow(&state, launch, now: now, effects: &effects)
        case .intent(let intent):
            let before = state.context
            handle(intent, &state, now: now, effects: &effects)
            noteTyping(since: before, &state, now: now, effects: effects)
        case .callFinished(let id, let result):
            finish(callID: id, result, &state, now: now, effects: &effects)
        case .closing:
            if state.phase == .showing, let screen = currentScreen(state) { saveDraft(screen, &state, effects: &effects) }
        case .resumed:
            retrySilently(&state, now: now, effects: &effects)
        case .jump(let id):
            jump(to: id, &state, now: now, effects: &effects)
        case .tick:
            renewIfDue(&state, now: now, effects: &effects)
            pollIfDue(&state, now: now, effects: &effects)
            saveDraftIfTypingPaused(&state, now: now, effects: &effects)
        case .clockMoved:
            renewIfDue(&state, now: now, effects: &effects)
            pollIfDue(&state, now: now, effects: &effects)
        case .storageFailed(let note):
            if !state.storageProblems.contains(note) { state.storageProblems.append(note) }
        case .reset(let launch):
            effects.append(.forgetLocalData)
            launchFlow(&state, launch, now: now, effects: &effects)
        }
        return effects
    }
}
