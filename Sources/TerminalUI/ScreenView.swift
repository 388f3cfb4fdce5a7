import FlowEngine
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
        public var isPassword: Bool
        public var isDate: Bool
    }

    public struct ItemView: Equatable, Sendable {
        public var label: String
        public var focused: Bool
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
    public var warnings: [String] = []
    /// The label beside the spinner while a call the user waits for runs.
    public var busyLabel: String?
    public var canGoBack = false

    public var busy: Bool { busyLabel != nil }

    public init() {}

    /// The view of the engine's current screen. Before any screen (a silent renewal on
    /// launch) it is an empty page with a quiet spinner.
    public static func make(engine: FlowEngine, state: FlowState) -> ScreenView {
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
            FieldView(
                label: field.label, value: state.context[field.id]?.text ?? "", placeholder: field.placeholder,
                error: state.fieldErrors[field.id], focused: focused == .field(index),
                secret: field.kind == .password && !state.revealed.contains(field.id),
                isPassword: field.kind == .password, isDate: field.kind == .date)
        }
        if let choice = screen.choice {
            view.options = engine.options(of: choice, state).enumerated().map { index, option in
                ItemView(label: option, focused: focused == .option(index))
            }
        }
        view.buttons = screen.actions.enumerated().filter { engine.holds($0.element.when, state) }.map { index, action in
            ItemView(label: action.label, focused: focused == .action(index))
        }
        if let key = screen.items {
            let rows = state.context[key]?.list ?? []
            view.items = rows.isEmpty ? [] : rows
            view.emptyItems = rows.isEmpty ? fill(screen.empty) : ""
        }
        view.message = state.message
        view.canGoBack = screen.allowsBack && !state.history.isEmpty
        if screen.kind == .progress {
            view.busyLabel = view.title
            view.title = ""
        } else if state.pending != nil {
            view.busyLabel = "Please wait..."
        }
        return view
    }
}
