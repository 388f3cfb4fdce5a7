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
    /// Text to show as a QR code too (drawn only where it fits).
    public var qr: String?
    public var fields: [FieldView] = []
    public var options: [ItemView] = []
    public var buttons: [ItemView] = []
    public var message: FlowState.Message?
    /// The body is longer than the screen: text is out of view below (PgDn) or above (PgUp).
    public var moreBelow = false
    public var moreAbove = false
    public var warnings: [String] = []
    /// Reassuring notes: nothing went wrong that the person must act on.
    public var notes: [String] = []
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
}
