@testable import FlowEngine
import ScreenTable
import Foundation
import Testing

/// Drives one flow through the reducer as a person would: press a button by its label,
/// focus a field by its id, type, and answer the calls the engine makes — each by the
/// intents and events a front end sends.
///
/// Every step is a story's line in the manner of TCA's `TestStore`: it states what it
/// did (`effects:`, each effect in a few words, see `summary(of:)`) and every change it
/// made to the state (`changes:`, see `StoryState`), and fails on anything unstated.
/// `ONBOARD_RECORD_STORIES=FILE swift test --filter FlowEngineTests` writes what each step
/// did to FILE instead of judging it (for `scripts/state-stories.py`, after a change to
/// the engine that is meant).
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

    init(_ id: String, now: Int64 = 1_795_348_800_000) {
        self.init(flow: try! BuiltinFlows.load(id), now: now)
    }

    init(flow: Flow, now: Int64 = 1_795_348_800_000) {
        engine = FlowEngine(flow: flow)
        self.now = now
    }

    var screen: String? { state.screenID }
    var view: Screen { engine.currentScreen(state)! }
    /// What the screen shows now, as a person sees it.
    var shown: ScreenView { engine.view(of: state, now: now) }

    /// One step: the events in order, then everything they did, stated whole.
    @discardableResult
    mutating func step(
        _ events: [FlowEvent], effects expected: [String], changes stated: [String], sourceLocation: Testing.SourceLocation
    ) -> [Effect] {
        let before = StoryState.lines(state, now: now)
        var new: [Effect] = []
        for event in events { new += engine.reduce(&state, event, now: now) }
        effects += new
        reached += new.compactMap { if case .reached(let reach) = $0 { reach } else { nil } }
        let said = new.filter { if case .reached = $0 { false } else { true } }.map(Self.summary)
        let changed = StoryState.changes(from: before, to: StoryState.lines(state, now: now))
        if StoryRecorder.isRecording {
            StoryRecorder.record(sourceLocation, effects: said, changes: changed)
        } else {
            #expect(said == expected, "effects", sourceLocation: sourceLocation)
            #expect(changed == stated, "changes", sourceLocation: sourceLocation)
        }
        return new
    }

    @discardableResult
    mutating func send(
        _ event: FlowEvent, effects expected: [String], changes: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        step([event], effects: expected, changes: changes, sourceLocation: sourceLocation)
    }

    /// A step of a property checked over many steps (a clock ticking for minutes), whose
    /// assertion is the test's own, not a story's line: says why it states nothing.
    @discardableResult
    mutating func run(_ event: FlowEvent, because reason: String) -> [Effect] {
        precondition(!reason.isEmpty, "say why this step is not stated")
        let new = engine.reduce(&state, event, now: now)
        effects += new
        reached += new.compactMap { if case .reached(let reach) = $0 { reach } else { nil } }
        return new
    }

    @discardableResult
    mutating func launch(
        session: Session? = nil, progress: SavedProgress? = nil, defaults: [String: Value] = [:], placeholder: String = "p",
        effects expected: [String], changes: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        send(
            .launched(Launch(session: session, progress: progress, placeholderUserID: placeholder, defaults: defaults)),
            effects: expected, changes: changes, sourceLocation: sourceLocation)
    }

    /// Presses the button with this label that is shown (a hidden one with the same label
    /// does not count): focus on it, then activate, as line prompts do.
    @discardableResult
    mutating func press(
        _ label: String, effects expected: [String], changes: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        let screen = view
        let items = engine.focusables(of: screen, state)
        guard
            let focus = items.firstIndex(where: { item in
                if case .action(let index) = item { screen.actions[index].label == label } else { false }
            })
        else {
            Issue.record("no '\(label)' shown on \(screen.id)", sourceLocation: sourceLocation)
            return []
        }
        return step([.intent(.focus(focus)), .intent(.activate)], effects: expected, changes: changes, sourceLocation: sourceLocation)
    }

    /// Focuses the field `id` on the current screen.
    @discardableResult
    mutating func focus(
        _ id: String, effects expected: [String], changes: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        guard let intent = focusIntent(id, sourceLocation: sourceLocation) else { return [] }
        return step([intent], effects: expected, changes: changes, sourceLocation: sourceLocation)
    }

    private func focusIntent(_ id: String, sourceLocation: Testing.SourceLocation) -> FlowEvent? {
        guard let index = view.fields.firstIndex(where: { $0.id == id }),
            let focus = engine.focusables(of: view, state).firstIndex(of: .field(index))
        else {
            Issue.record("no field '\(id)' on \(view.id)", sourceLocation: sourceLocation)
            return nil
        }
        return .intent(.focus(focus))
    }

    /// Types into the focused field, or into `id` focused first.
    @discardableResult
    mutating func type(
        _ text: String, into id: String? = nil, effects expected: [String], changes: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        var events: [FlowEvent] = []
        if let id {
            guard let intent = focusIntent(id, sourceLocation: sourceLocation) else { return [] }
            events.append(intent)
        }
        return step(events + [.intent(.insert(text))], effects: expected, changes: changes, sourceLocation: sourceLocation)
    }

    /// A key's intent, `times` times in a row, stated once for all of them.
    @discardableResult
    mutating func key(
        _ intent: Intent, times: Int = 1, effects expected: [String], changes: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        step(Array(repeating: .intent(intent), count: times), effects: expected, changes: changes, sourceLocation: sourceLocation)
    }

    /// Answers the call the user waits for.
    @discardableResult
    mutating func answer(
        _ result: Result<CallOutput, ServiceFailure>, effects expected: [String], changes: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        guard let pending = state.calls.userCall else {
            Issue.record("no call is pending on \(screen ?? "-")", sourceLocation: sourceLocation)
            return []
        }
        return send(.callFinished(id: pending.id, result: result), effects: expected, changes: changes, sourceLocation: sourceLocation)
    }

    /// Answers the call under way for `operation`, whatever its purpose (a renewal, a
    /// background load, a checklist task).
    @discardableResult
    mutating func answer(
        _ operation: ScreenTable.Operation, _ result: Result<CallOutput, ServiceFailure>, effects expected: [String],
        changes: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        guard let id = state.calls.entries.filter({ $0.value.operation == operation && $0.value.purpose != .abandoned }).keys.min() else {
            Issue.record("no \(operation.rawValue) call under way on \(screen ?? "-")", sourceLocation: sourceLocation)
            return []
        }
        return send(.callFinished(id: id, result: result), effects: expected, changes: changes, sourceLocation: sourceLocation)
    }

    @discardableResult
    mutating func fail(
        _ code: String, _ message: String = "the service said no", effects expected: [String], changes: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Effect] {
        answer(.failure(ServiceFailure(code: code, message: message)), effects: expected, changes: changes, sourceLocation: sourceLocation)
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

extension FlowDriver {
    /// OKLah launched at Home (`SavedProgress.oklahHome`) with u_1's session: Home's
    /// message loads in the background.
    static let launchedAtOKLahHome = [
        "call 1 = motivation (background)",
        "context.display_name = Sunny Otter",
        "onboarding = complete",
        "phase = showing",
        "placeholder = p",
        "screen = home",
        "session = u_1 guest complete",
        "since = now",
        "starts run removed",
    ]
}

extension SavedProgress {
    /// OKLah's place once a name was chosen: Home, with the name.
    static let oklahHome = SavedProgress(
        screen: "home", context: ["display_name": .text("Sunny Otter")], onboardingComplete: true, startedAt: nil,
        placeholderUserID: "p", requiresSession: true)
}

/// `ONBOARD_RECORD_STORIES=FILE`: each step's effects and changes, one JSON line per
/// step with where it was called from, appended with one write each (tests run in
/// parallel).
enum StoryRecorder {
    static let path = ProcessInfo.processInfo.environment["ONBOARD_RECORD_STORIES"]
    static var isRecording: Bool { path != nil }

    static func record(_ location: Testing.SourceLocation, effects: [String], changes: [String]) {
        guard let path else { return }
        let entry: [String: Any] = [
            "file": location.fileID, "line": location.line, "column": location.column, "effects": effects, "changes": changes,
        ]
        guard var data = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]) else { return }
        data.append(0x0A)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
