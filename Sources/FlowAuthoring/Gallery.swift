import CivilCalendar
import FlowEngine
import ScreenTable
import ServiceAPI

/// Every state of a flow the coverage map names — each screen, each result of each call,
/// each field's messages — reached through the engine itself, as a run would reach it
/// (a QA jump to the screen, valid input typed, the call answered with the result's
/// code), and kept as the view the renderer draws. A state the engine does not reach
/// this way is listed with why. `onboard gallery` draws them into a page.
public struct Gallery: Sendable {
    public struct Entry: Sendable {
        public var reach: Reach
        /// What QA sees: the screen's title, the call and code, the message.
        public var title: String
        /// How to get there, in words (the coverage map's).
        public var how: String
        /// The keys that reach the screen from a fresh start (the QA console's jump).
        public var keys: String
        public var location: SourceLocation?
        /// The state as the engine left it: drawn by the renderer, at any size.
        public var view: ScreenView?
        /// Why it is not drawn, when it is not.
        public var notDrawn: String?
    }

    public let flow: Flow
    public let entries: [Entry]

    /// `now`: the clock the states are reached at (dates on screen count from it).
    public init(flow: Flow, now: Int64) {
        self.flow = flow
        let driver = GalleryDriver(flow: flow, now: now)
        entries = CoverageMap(flow: flow).items.map { item in
            let screen = flow.screen(item.reach.screen)
            var entry = Entry(
                reach: item.reach, title: item.title, how: item.how, keys: driver.jumpKeys(to: item.reach.screen),
                location: screen?.location)
            switch driver.reach(item.reach) {
            case .success(let view): entry.view = view
            case .failure(let why): entry.notDrawn = why.description
            }
            return entry
        }
    }

    /// The screens `onboard graph` lists, in the flow's order.
    public var screenIDs: [String] { flow.screens.map(\.id) }
}

/// Why a state is not drawn.
struct NotDrawn: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The engine, driven to one state at a time from a fresh launch.
struct GalleryDriver {
    let flow: Flow
    let engine: FlowEngine
    let now: Int64

    init(flow: Flow, now: Int64) {
        self.flow = flow
        engine = FlowEngine(flow: flow)
        self.now = now
    }

    var today: CivilDate { CivilDate(milliseconds: now, utcOffset: 0) }

    /// The screens the QA console's jump lists, in its order.
    var jumpable: [String] { flow.screens.filter { $0.kind != .route }.map(\.id) }

    /// Ctrl-G › Jump to a screen › the screen: a key script from a fresh start.
    func jumpKeys(to screen: String) -> String {
        guard let index = jumpable.firstIndex(of: screen), let page = QAPage.jump else { return "" }
        return (["<C-g>"] + Array(repeating: "<Down>", count: page) + ["<Enter>"] + Array(repeating: "<Down>", count: index) + ["<Enter>"])
            .joined()
    }

    /// The state `reach` names, as whoever the screen is for (no one yet, a guest, or a
    /// signed-in account: a jump goes only where the flow's guards on who is signed in
    /// let it); the first identity that reaches it.
    func reach(_ reach: Reach) -> Result<ScreenView, NotDrawn> {
        guard let screen = flow.screen(reach.screen) else { return .failure(NotDrawn("the flow has no screen \(reach.screen)")) }
        if screen.kind == .route { return .failure(NotDrawn("a route screen decides where to go and is never shown")) }
        if case .result(_, _, "success") = reach {
            return .failure(NotDrawn("a success shows the screen it leads to, drawn as that screen"))
        }
        // Each identity in turn; if none draws it, the reason as no one signed in.
        let signedOut = self.reach(reach, on: screen, as: nil)
        guard case .failure = signedOut else { return signedOut }
        for guest in [true, false] {
            if case .success(let view) = self.reach(reach, on: screen, as: session(guest: guest)) { return .success(view) }
        }
        return signedOut
    }

    private func reach(_ reach: Reach, on screen: Screen, as session: Session?) -> Result<ScreenView, NotDrawn> {
        var state = FlowState()
        _ = engine.reduce(&state, .launched(Launch(session: session, progress: nil, placeholderUserID: "gallery")), now: now)
        if let refusal = engine.jumpRefusal(to: screen.id, state) { return .failure(NotDrawn(refusal)) }
        var calls = calls(in: engine.reduce(&state, .jump(screen.id), now: now))
        switch reach {
        case .screen:
            break
        case .result(_, let operation, let code):
            let made = { (calls: [CallRequest]) in calls.contains { $0.operation.rawValue == operation } }
            if !made(calls) { calls += fill(screen, &state) }
            if !made(calls) { calls += press(calling: operation, on: screen, &state, at: now) }
            // A button that cools down after arrival (Resend) is pressed once it may be;
            // a poll goes when its interval has passed.
            if !made(calls) { calls += press(calling: operation, on: screen, &state, at: now + 3_600_000) }
            if !made(calls) { calls += self.calls(in: engine.reduce(&state, .tick, now: now + 60_000)) }
            guard let call = calls.last(where: { $0.operation.rawValue == operation }) else {
                let errors = state.form.errors.values.sorted()
                return .failure(
                    NotDrawn(
                        "the engine made no \(operation) call from this screen"
                            + (errors.isEmpty ? "" : " (\(errors.joined(separator: "; ")))")))
            }
            let failure = ServiceFailure(code: code, message: "(the service's own words for \(code))")
            _ = engine.reduce(&state, .callFinished(id: call.id, result: .failure(failure)), now: now)
        case .message(_, let fieldID, let ruleName):
            guard let index = screen.fields.firstIndex(where: { $0.id == fieldID }),
                let rule = screen.fields[index].rules.first(where: { $0.name.rawValue == ruleName })
            else {
                return .failure(NotDrawn("no rule \(ruleName) on \(fieldID)"))
            }
            let field = screen.fields[index]
            _ = fill(screen, &state)
            guard let broken = GalleryInputs.breaking(rule, of: field, in: state.context.values, today: today) else {
                return .failure(
                    NotDrawn(
                        "no value the field can hold breaks this rule first (\(CoverageMap.input(failing: rule, of: field, on: screen)))"))
            }
            _ = set(broken, field: index, on: screen, &state)
            if state.form.errors[fieldID] != rule.message {
                // Some rules are judged only when the form is sent.
                _ = press(calling: nil, on: screen, &state, at: now)
            }
            guard state.form.errors[fieldID] == rule.message else {
                return .failure(
                    NotDrawn(
                        "the message did not show for \(broken.text.map { $0.isEmpty ? "an empty value" : "'\($0)'" } ?? "none picked")"))
            }
        }
        return .success(engine.view(of: state, now: now))
    }

    /// A session the service would have issued a moment ago.
    private func session(guest: Bool) -> Session {
        Session(
            userID: guest ? "u_gallery_guest" : "u_gallery", accessToken: "gallery", accessExpiresAt: now / 1000 + 3600,
            refreshToken: "gallery",
            refreshExpiresAt: guest ? nil : now / 1000 + 30 * 86_400, isAnonymous: guest, createdAt: now / 1000,
            lastAuthenticated: now / 1000,
            onboardingComplete: true)
    }

    private func calls(in effects: [Effect]) -> [CallRequest] {
        effects.compactMap { if case .call(let request) = $0 { request } else { nil } }
    }

    /// Every field whose value breaks a rule gets one that passes them all: a typed value,
    /// a date, the first option of a choice. Returns the calls a value set off (a code
    /// sent once its last digit is in).
    private func fill(_ screen: Screen, _ state: inout FlowState) -> [CallRequest] {
        var calls: [CallRequest] = []
        for (index, field) in screen.fields.enumerated()
        where Validation.firstFailure(of: field, in: state.context.values, today: today) != nil {
            let values = state.context.values.compactMapValues(\.text)
            let value: Value? =
                switch field.kind {
                case .select: field.options.first.map(Value.text)
                case .multi: field.options.first { $0 != field.exclusive }.map { .list([$0]) }
                case .slider, .range: nil
                default: GalleryInputs.valid(for: field, values: values, today: today).map(Value.text)
                }
            if let value { calls += set(value, field: index, on: screen, &state) }
        }
        return calls
    }

    private func set(_ value: Value, field index: Int, on screen: Screen, _ state: inout FlowState) -> [CallRequest] {
        guard let focus = engine.focusables(of: screen, state).firstIndex(of: .field(index)) else { return [] }
        return calls(
            in: engine.reduce(&state, .intent(.focus(focus)), now: now) + engine.reduce(&state, .intent(.setValue(value)), now: now))
    }

    /// Presses the button that makes `operation`'s call (the first calling button when
    /// nil, else the first button); returns the calls it made.
    private func press(calling operation: String?, on screen: Screen, _ state: inout FlowState, at time: Int64) -> [CallRequest] {
        // A button shown only for some value (`browser == yes`) is pressed with that value,
        // as a jump takes such guards as met.
        for action in screen.actions {
            guard case .call(let call) = action.step, call.operation.rawValue == operation, let test = action.when,
                test.name == .equals, !test.negated, let key = test.key, let value = test.value
            else { continue }
            state.context.answer(key, .text(value))
        }
        let items = engine.focusables(of: screen, state)
        let buttons = items.indices.compactMap { focus -> (focus: Int, call: ServiceCall?)? in
            guard case .action(let index) = items[focus] else { return nil }
            if case .call(let call) = screen.actions[index].step { return (focus, call) }
            return (focus, nil)
        }
        let chosen =
            if let operation {
                buttons.first { $0.call?.operation.rawValue == operation }
            } else {
                buttons.first { $0.call != nil } ?? buttons.first
            }
        guard let chosen else { return [] }
        var effects = engine.reduce(&state, .intent(.focus(chosen.focus)), now: time)
        effects += engine.reduce(&state, .intent(.activate), now: time)
        return calls(in: effects)
    }
}

/// The QA console's menu, as the gallery's key scripts walk it.
enum QAPage {
    /// "Jump to a screen": its place in the console's menu.
    static let jump: Int? = 4
}
