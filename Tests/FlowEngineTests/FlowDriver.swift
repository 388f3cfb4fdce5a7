@testable import FlowEngine
import ScreenTable
import Testing

/// Drives one flow through the reducer as a person would: press a button by its label,
/// focus a field by its id, type, and answer the calls the engine makes.
struct FlowDriver {
    let engine: FlowEngine
    var state = FlowState()
    /// The time events happen at (ms); tests move it.
    var now: Int64
    /// Every effect so far, oldest first.
    var effects: [Effect] = []

    init(_ id: String, now: Int64 = 1_795_348_800_000) {
        engine = FlowEngine(flow: try! BuiltinFlows.load(id))
        self.now = now
    }

    var screen: String? { state.screenID }
    var view: Screen { engine.currentScreen(state)! }

    @discardableResult
    mutating func send(_ event: FlowEvent) -> [Effect] {
        let new = engine.reduce(&state, event, now: now)
        effects += new
        return new
    }

    @discardableResult
    mutating func launch(session: Session? = nil, progress: SavedProgress? = nil) -> [Effect] {
        send(.launched(Launch(session: session, progress: progress, placeholderUserID: "p")))
    }

    @discardableResult
    mutating func press(_ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Effect] {
        let screen = view
        let items = engine.focusables(of: screen, state)
        guard let index = screen.actions.firstIndex(where: { $0.label == label }), let focus = items.firstIndex(of: .action(index)) else {
            Issue.record("no '\(label)' on \(screen.id)", sourceLocation: sourceLocation)
            return []
        }
        state.form.focus = focus
        return send(.intent(.activate))
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
    mutating func type(_ text: String, into id: String? = nil) -> [Effect] {
        if let id { focus(id) }
        return send(.intent(.insert(text)))
    }

    @discardableResult
    mutating func key(_ intent: Intent, times: Int = 1) -> [Effect] {
        (0..<times).flatMap { _ in send(.intent(intent)) }
    }

    /// Answers the call the user waits for.
    @discardableResult
    mutating func answer(_ result: Result<CallOutput, ServiceFailure>, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Effect] {
        guard let pending = state.calls.userCall else {
            Issue.record("no call is pending on \(screen ?? "-")", sourceLocation: sourceLocation)
            return []
        }
        return send(.callFinished(id: pending.id, result: result))
    }

    mutating func fail(_ code: String, _ message: String = "the service said no") -> [Effect] {
        answer(.failure(ServiceFailure(code: code, message: message)))
    }

    static func calls(_ effects: [Effect]) -> [CallRequest] {
        effects.compactMap { if case .call(let request) = $0 { request } else { nil } }
    }

    static func tracked(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .track(let record) = $0 { record.name } else { nil } }
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
