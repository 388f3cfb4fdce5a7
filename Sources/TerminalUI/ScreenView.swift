import CivilCalendar
import FlowEngine
import InputRules
import ScreenTable

/// What one screen shows right now: the screen table's text with placeholders filled,
/// and the engine's focus, values, errors and busy state. The renderer draws only this.
public struct ScreenView: Equatable, Sendable {
    public struct FieldView: Equatable, Sendable {
        public var label: String
        public var value: String
        public var placeholder: String
        public var error: String?
        public var focused: Bool
        /// Drawn as dots (a password not revealed with Ctrl-R).
        public var secret: Bool
        public var kind: Field.Kind = .text
        /// Select and multi: the options; multi: those picked.
        public var options: [String] = []
        public var picked: [String] = []
        /// Multi: the highlighted pill; range: the active handle.
        public var cursor = 0
        public var minimum = 0
        public var maximum = 100
        /// Code: how many boxes.
        public var length = 0
        /// A note drawn beside the value (the age a date of birth gives).
        public var hint: String?
        /// Text fields: where the cursor is, in characters of `value` as shown.
        public var caret: Int?

        public var isPassword: Bool { kind == .password }
        public var isDate: Bool { kind == .date }
    }

    public struct ItemView: Equatable, Sendable {
        public var label: String
        public var focused: Bool
        /// A button cooling down (Resend in 42 s): drawn dim, pressing says when.
        public var waiting = false
        /// Its shortcut letter, shown on it (`Log a Ruck (l)`), or nobody would know it.
        public var shortcut: Character?
        /// A link rather than a button: drawn after this prompt on its own line.
        public var linkPrompt: String?

        public init(label: String, focused: Bool, waiting: Bool = false) {
            self.label = label
            self.focused = focused
            self.waiting = waiting
        }
    }

    public var kind: Screen.Kind?
    public var logo: [String] = []
    public var title = ""
    public var body = ""
    public var bullets: [String] = []
    /// Rows of a context list, or the text shown when it is empty.
    public var items: [String] = []
    public var emptyItems = ""
    public var fields: [FieldView] = []
    public var options: [ItemView] = []
    public var buttons: [ItemView] = []
    public var message: FlowState.Message?
    /// The body is longer than the screen: text is out of view below (PgDn) or above (PgUp).
    public var moreBelow = false
    public var moreAbove = false
    public var warnings: [String] = []
    /// The label beside the spinner while a call the user waits for runs.
    public var busyLabel: String?
    public var canGoBack = false
    /// "Step 3 of 7" on numbered screens.
    public var stepLabel: String?
    /// Checklist screens: each task's label and state.
    public var checklist: [ChecklistLine] = []

    public struct ChecklistLine: Equatable, Sendable {
        public var label: String
        public var status: TaskStatus
    }

    /// Whether Ctrl-Z can suspend: not where there is no shell to return to (a session
    /// leader, such as each `serve-ssh` session).
    public var canSuspend = true

    public var busy: Bool { busyLabel != nil }

    public init() {}

    /// The view of the engine's current screen. Before any screen (a silent renewal on
    /// launch) it is an empty page with a quiet spinner.
    /// `now` (ms) counts down cooling buttons; nil shows them as just shown.
    /// `masking` (a recording): passwords stay dots even when revealed, and codes and the
    /// flow's `secrets` show as dots.
    public static func make(engine: FlowEngine, state: FlowState, now: Int64? = nil, masking: Bool = false) -> ScreenView {
        let state = masking ? masked(state, engine.flow) : state
        var view = ScreenView()
        view.warnings = state.warnings
        guard let screen = engine.currentScreen(state), state.phase == .showing || state.phase == .finished else {
            view.busyLabel = ""
            return view
        }
        let fill = { (text: String) in Placeholders.fill(text, from: state.context) }
        let focusables = engine.focusables(of: screen, state)
        let focused = focusables.indices.contains(state.focus) ? focusables[state.focus] : nil
        view.kind = screen.kind
        view.logo = screen.logo
        view.title = fill(screen.title)
        view.body = fill(screen.body)
        view.bullets = screen.bullets.map(fill)
        view.fields = screen.fields.enumerated().map { index, field in
            fieldView(field, focused: focused == .field(index), engine: engine, state: state, now: now ?? state.screenSince)
        }
        if let step = screen.step, let count = engine.flow.stepCount {
            view.stepLabel = "Step \(step) of \(count)"
        }
        if let choice = screen.choice {
            view.options = engine.options(of: choice, state).enumerated().map { index, option in
                ItemView(label: option, focused: focused == .option(index))
            }
        }
        view.buttons = screen.actions.enumerated().filter { engine.holds($0.element.when, state) }.map { index, action in
            if let wait = engine.cooldownLeft(action, state, now: now ?? state.screenSince) {
                return ItemView(label: "\(action.label) (\(wait) s)", focused: focused == .action(index), waiting: true)
            }
            var item = ItemView(label: action.label, focused: focused == .action(index))
            item.shortcut = action.key
            item.linkPrompt = action.linkPrompt
            return item
        }
        if let key = screen.items {
            let rows = state.context[key]?.list ?? []
            view.items = rows.isEmpty ? [] : rows
            view.emptyItems = rows.isEmpty ? fill(screen.empty) : ""
        }
        view.message = state.message
        if let index = state.pressedWhileCooling, screen.actions.indices.contains(index),
           let wait = engine.cooldownLeft(screen.actions[index], state, now: now ?? state.screenSince) {
            view.message = .notice("You can do this in \(wait) s.")
        }
        view.canGoBack = screen.allowsBack && !state.history.isEmpty
        if screen.kind == .checklist {
            view.checklist = zip(screen.tasks, state.tasks).map { ChecklistLine(label: $0.label, status: $1) }
            // Its buttons lead on once every task has an outcome; until then there are none.
            if !engine.checklistDone(state) { view.buttons = [] }
            if state.calls.task != nil { view.busyLabel = "Please wait..." }
        }
        if screen.kind == .progress {
            view.busyLabel = view.title
            view.title = ""
        } else if state.calls.userCall != nil {
            view.busyLabel = "Please wait..."
        }
        return view
    }

    /// Where the cursor goes in grouped digits: before the digit that follows the first
    /// `count`, or at the end.
    static func position(afterDigits count: Int, in grouped: String) -> Int {
        var seen = 0
        for (index, character) in grouped.enumerated() where character.isASCIIDigit {
            if seen == count { return index }
            seen += 1
        }
        return grouped.count
    }

    private static func masked(_ state: FlowState, _ flow: Flow) -> FlowState {
        var state = state
        state.revealed = []
        for key in flow.maskedKeys {
            if case .text(let text)? = state.context[key], !text.isEmpty {
                state.context[key] = .text(String(repeating: "•", count: min(text.count, 12)))
            }
        }
        return state
    }

    private static func fieldView(_ field: Field, focused: Bool, engine: FlowEngine, state: FlowState, now: Int64) -> FieldView {
        let field = engine.resolved(field, state)
        var view = FieldView(
            label: field.label, value: state.context[field.id]?.text ?? "", placeholder: field.placeholder,
            error: state.fieldErrors[field.id], focused: focused,
            secret: field.kind == .password && !state.revealed.contains(field.id), kind: field.kind)
        view.options = field.options
        view.picked = state.context[field.id]?.list ?? []
        view.cursor = state.cursor[field.id] ?? 0
        view.minimum = field.minimum
        view.maximum = field.maximum
        view.length = field.maxLength
        if field.kind.editsAsText { view.caret = engine.editor(for: field, state).cursor }
        switch field.kind {
        case .date where field.showsAge:
            if let born = CivilDate(view.value) {
                let age = born.age(on: CivilDate(milliseconds: now, utcOffset: state.utcOffset))
                view.hint = "Age \(max(0, age))"
            }
        case .phone:
            // Grouped as typed, for the country picked on the same screen.
            let country = engine.currentScreen(state)?.fields.first { $0.kind == .select && $0.options.contains { $0.hasPrefix("+") } }
            let code = country.flatMap { state.context[$0.id]?.text }.flatMap { PhoneNumber(country: $0, digits: "") }?.countryCode ?? ""
            view.value = PhoneNumber.formatted(view.value, countryCode: code)
            view.caret = view.caret.map { Self.position(afterDigits: $0, in: view.value) }
        default:
            break
        }
        return view
    }
}
