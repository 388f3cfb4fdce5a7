@testable import FlowEngine
import ScreenTable
import Testing

/// Drives one flow through the reducer as a person would: press a button by its label,
/// focus a field by its id, type, and answer the calls the engine makes.
///
/// Made `exhaustive`, it is a story in the manner of TCA's `TestStore`: every step states
/// what it does (`effects:`, each effect in a few words, see `summary(of:)`), and a step
/// that does something unstated, or states nothing, fails.
struct FlowDriver {
    let engine: FlowEngine
    var state = FlowState()
    /// The time events happen at (ms); tests move it.
    var now: Int64
    /// Every effect so far, oldest first.
    var effects: [Effect] = []
    /// What QA's coverage counted so far (`Effect.reached`), oldest first; left out of
    /// `effects:` statements, which say what a step does.
    var reached: [Reach] = []
    let exhaustive: Bool

    init(_ id: String, now: Int64 = 1_795_348_800_000, exhaustive: Bool = false) {
        self.init(flow: try! BuiltinFlows.load(id), now: now, exhaustive: exhaustive)
    }

    init(flow: Flow, now: Int64 = 1_795_348_800_000, exhaustive: Bool = false) {
        engine = FlowEngine(flow: flow)
        self.now = now
        self.exhaustive = exhaustive
    }

    var screen: String? { state.screenID }
    var view: Screen { engine.currentScreen(state)! }
    /// What the screen shows now, as a person sees it.
    var shown: ScreenView { engine.view(of: state, now: now) }

    @discardableResult
    mutating func send(_ event: FlowEvent, effects expected: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Effect] {
        let new = engine.reduce(&state, event, now: now)
        effects += new
        reached += new.compactMap { if case .reached(let reach) = $0 { reach } else { nil } }
        let said = new.filter { if case .reached = $0 { false } else { true } }.map(Self.summary)
        if let expected {
            #expect(said == expected, sourceLocation: sourceLocation)
        } else if exhaustive {
            Issue.record("say what this step does: effects: \(said)", sourceLocation: sourceLocation)
        }
        return new
    }

    @discardableResult
    mutating func launch(
        session: Session? = nil, progress: SavedProgress? = nil, defaults: [String: Value] = [:], placeholder: String = "p",
        effects expected: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        send(.launched(Launch(session: session, progress: progress, placeholderUserID: placeholder, defaults: defaults)),
             effects: expected, sourceLocation: sourceLocation)
    }

    /// Presses the button with this label that is shown (a hidden one with the same label
    /// does not count).
    @discardableResult
    mutating func press(_ label: String, effects expected: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Effect] {
        let screen = view
        let items = engine.focusables(of: screen, state)
        guard let focus = items.firstIndex(where: { item in
            if case .action(let index) = item { screen.actions[index].label == label } else { false }
        }) else {
            Issue.record("no '\(label)' shown on \(screen.id)", sourceLocation: sourceLocation)
            return []
        }
        state.form.focus = focus
        return send(.intent(.activate), effects: expected, sourceLocation: sourceLocation)
    }

    /// Focuses the field `id` on the current screen.
    mutating func focus(_ id: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard let index = view.fields.firstIndex(where: { $0.id == id }) else {
            Issue.record("no field '\(id)' on \(view.id)", sourceLocation: sourceLocation)
            return
        }
        state.form.focus = engine.focusables(of: view, state).firstIndex(of: .field(index))!
    }

    @discardableResult
    mutating func type(_ text: String, into id: String? = nil, effects expected: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Effect] {
        if let id { focus(id, sourceLocation: sourceLocation) }
        return send(.intent(.insert(text)), effects: expected, sourceLocation: sourceLocation)
    }

    @discardableResult
    mutating func key(_ intent: Intent, times: Int = 1, effects expected: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Effect] {
        (0..<times).flatMap { _ in send(.intent(intent), effects: expected, sourceLocation: sourceLocation) }
    }

    /// Answers the call the user waits for.
    @discardableResult
    mutating func answer(_ result: Result<CallOutput, ServiceFailure>, effects expected: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Effect] {
        guard let pending = state.calls.userCall else {
            Issue.record("no call is pending on \(screen ?? "-")", sourceLocation: sourceLocation)
            return []
        }
        return send(.callFinished(id: pending.id, result: result), effects: expected, sourceLocation: sourceLocation)
    }

    /// Answers the call under way for `operation`, whatever its purpose (a renewal, a
    /// background load, a checklist task).
    @discardableResult
    mutating func answer(
        _ operation: Operation, _ result: Result<CallOutput, ServiceFailure>, effects expected: [String]? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        guard let id = state.calls.entries.filter({ $0.value.operation == operation && $0.value.purpose != .abandoned }).keys.min() else {
            Issue.record("no \(operation.rawValue) call under way on \(screen ?? "-")", sourceLocation: sourceLocation)
            return []
        }
        return send(.callFinished(id: id, result: result), effects: expected, sourceLocation: sourceLocation)
    }

    @discardableResult
    mutating func fail(_ code: String, _ message: String = "the service said no", effects expected: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Effect] {
        answer(.failure(ServiceFailure(code: code, message: message)), effects: expected, sourceLocation: sourceLocation)
    }

    /// An effect in a few words: `call sign_in_anonymously`, `save progress at home`,
    /// `save session u_1`, `forget session`, `track onboarding_start`.
    static func summary(of effect: Effect) -> String {
        switch effect {
        case .call(let request): "call \(request.operation.rawValue)"
        case .saveSession(let session?): "save session \(session.userID)"
        case .saveSession(nil): "forget session"
        case .saveProgress(let progress?): "save progress at \(progress.screen)"
        case .saveProgress(nil): "forget progress"
        case .track(let record): "track \(record.name)"
        case .backfillAnalytics(_, let userID): "backfill analytics for \(userID)"
        case .forgetLocalData: "forget local data"
        case .forgetAnalytics: "forget analytics"
        case .quit: "quit"
        case .reached(let reach): "reached \(reach.id)"
        }
    }

    static func calls(_ effects: [Effect]) -> [CallRequest] {
        effects.compactMap { if case .call(let request) = $0 { request } else { nil } }
    }

    static func tracked(_ effects: [Effect]) -> [AnalyticsRecord] {
        effects.compactMap { if case .track(let record) = $0 { record } else { nil } }
    }

    /// The last progress saved, if any.
    var savedProgress: SavedProgress? {
        for effect in effects.reversed() {
            if case .saveProgress(let progress) = effect { return progress }
        }
        return nil
    }

    func text(_ key: String) -> String? { state.context[key]?.text }
}

extension SavedProgress {
    /// OKLah's place once a name was chosen: Home, with the name.
    static let oklahHome = SavedProgress(
        screen: "home", context: ["display_name": .text("Sunny Otter")], onboardingComplete: true, startedAt: nil,
        placeholderUserID: "p", requiresSession: true)
}
