import ScreenTable

/// The pure reducer every flow runs on: (state, event, now) -> (state, effects).
/// It performs no I/O; the runtime carries out the effects and feeds results back.
///
/// Its parts live one to a file: the session's life (SessionLifecycle, SessionRenewal),
/// moving between screens (Navigation), calls and their results (CallLifecycle over the
/// CallTable), keys on a screen (Input, TextFieldEditing over the LineEditor, and one
/// file per field kind in FieldKinds/), checklists (Checklist), the flow's rules (Rules,
/// Validation) and analytics (Analytics).
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

    /// What a run forced by a QA jump leaves out: the person's progress and analytics.
    static func recordsForThePerson(_ effect: Effect) -> Bool {
        switch effect {
        case .saveProgress, .track, .backfillAnalytics: true
        default: false
        }
    }

    /// Applies one event at time `now` (ms since 1970) and returns the effects to run.
    public func reduce(_ state: inout FlowState, _ event: FlowEvent, now: Int64) -> [Effect] {
        var effects: [Effect] = []
        let shown = state.form.errors
        let typedBefore = state.context
        switch event {
        case .launched(let launch):
            launchFlow(&state, launch, now: now, effects: &effects)
        case .intent(let intent):
            handle(intent, &state, now: now, effects: &effects)
        case .callFinished(let id, let result):
            finish(callID: id, result, &state, now: now, effects: &effects)
        case .closing:
            if state.phase == .showing, let screen = currentScreen(state) { saveDraft(screen, &state, effects: &effects) }
        case .resumed:
            retrySilently(&state, now: now, effects: &effects)
        case .jump(let id):
            jump(to: id, &state, now: now, effects: &effects)
        case .tick, .clockMoved:
            renewIfDue(&state, now: now, effects: &effects)
            pollIfDue(&state, now: now, effects: &effects)
        case .storageFailed(let note):
            if !state.storageProblems.contains(note) { state.storageProblems.append(note) }
        case .reset(let launch):
            effects.append(.forgetLocalData)
            launchFlow(&state, launch, now: now, effects: &effects)
        }
        keepDraft(after: event, typedBefore: typedBefore, &state, now: now, effects: &effects)
        if state.forcedByJump { effects.removeAll(where: Self.recordsForThePerson) }
        // What a person does judges the form again, so the same words may now come from
        // another rule ("Ana2": letters where "" was min_length).
        let judged = if case .intent = event { true } else { false }
        reachedMessages(since: shown, judged: judged, state, now: now, effects: &effects)
        return Self.oneProgressWriteInARow(Self.oneSessionWrite(effects))
    }

    /// A rule's message under a field, newly or after the form was judged again: which
    /// rule it was, for QA's coverage (the coverage log keeps each once).
    private func reachedMessages(since shown: [String: String], judged: Bool, _ state: FlowState, now: Int64, effects: inout [Effect]) {
        guard let screen = currentScreen(state) else { return }
        for field in screen.fields {
            guard let message = state.form.errors[field.id], judged || shown[field.id] != message else { continue }
            let candidates = field.rules.filter { $0.message == message }
            var rule = candidates.first
            if candidates.count > 1 {
                // Several rules share the words: the one the value fails now.
                let values = state.context.compactMapValues(\.text)
                rule =
                    candidates.first {
                        !Validation.passes(
                            $0, value: values[field.id] ?? "", picked: state.context[field.id]?.list, values: values,
                            today: today(now, state))
                    } ?? rule
            }
            if let rule { effects.append(.reached(.message(screen: screen.id, field: field.id, rule: rule.name.rawValue))) }
        }
    }

    /// Two progress writes in a row (an arrival's, then the key of the call it makes):
    /// the second holds all the first did, so one write is enough.
    static func oneProgressWriteInARow(_ effects: [Effect]) -> [Effect] {
        effects.indices.filter { index in
            guard case .saveProgress = effects[index], index + 1 < effects.count, case .saveProgress = effects[index + 1] else {
                return true
            }
            return false
        }.map { effects[$0] }
    }

    /// A sign-in that also completes onboarding saves the session twice in one event: the
    /// last write says it all, and each is an fsynced file.
    static func oneSessionWrite(_ effects: [Effect]) -> [Effect] {
        let writes = effects.indices.filter { if case .saveSession = effects[$0] { true } else { false } }
        guard writes.count > 1, let last = writes.last else { return effects }
        return effects.indices.filter { !writes.contains($0) || $0 == last }.map { effects[$0] }
    }
}
