import ScreenTable

/// The form on the current screen as it is being filled. Read anywhere; changed only
/// through the operations below, each named for what happened on the form.
public struct FormState: Equatable, Sendable {
    /// Index into the screen's focusables (fields, options, buttons: the Tab order).
    public private(set) var focus = 0
    /// Each field's error, under it.
    public private(set) var errors: [String: String] = [:]
    /// Per field: the highlighted pill of a multi field, the active handle (0 or 1) of a
    /// range, the cursor in a text field (absent: at the end).
    public private(set) var cursor: [String: Int] = [:]
    /// What Ctrl-K, Ctrl-U, Ctrl-W or Alt-D deleted last, for Ctrl-Y (never a password).
    public private(set) var killed = ""
    /// The slider, range or date field being typed in digits: the next digit adds to it
    /// instead of starting over.
    public private(set) var typingNumber: String?
    /// The digits typed so far into that slider or range.
    public private(set) var typedDigits = ""
    /// Password fields shown in clear (Ctrl-R).
    public private(set) var revealed: Set<String> = []
    /// When a key last changed a value here that is not saved yet (ms): once typing
    /// pauses the draft is saved, so a kill loses at most the last moment's keys.
    public private(set) var editedAt: Int64?

    public init() {}

    /// A new screen's form: focus on its first item, no errors, nothing half typed.
    mutating func enter(_ screen: Screen) {
        typingNumber = nil
        for field in screen.fields where field.kind.editsAsText { cursor[field.id] = nil }
        errors = [:]
        focus = 0
    }

    // MARK: Focus

    /// Focus moves to the item at `index`; digits typed into the last one are done.
    mutating func moveFocus(to index: Int) {
        focus = index
        typingNumber = nil
    }

    /// Focus goes to an item without ending a number being typed (an error's field, the
    /// first field again, a shorter screen after a reload).
    mutating func focus(on index: Int) { focus = index }

    // MARK: Errors

    /// Says `message` under the field.
    mutating func say(_ message: String, under field: String) { errors[field] = message }

    /// The field's error no longer holds (its value changed).
    mutating func clearError(under field: String) { errors[field] = nil }

    /// The whole form is judged again: no error from before stands.
    mutating func clearErrors() { errors = [:] }

    // MARK: Editing

    /// Where the cursor or highlight is in a field (nil: at the end, or none).
    mutating func place(cursor position: Int?, in field: String) { cursor[field] = position }

    /// Keeps what a kill command cut, for Ctrl-Y.
    mutating func keep(killed text: String) { killed = text }

    /// Ctrl-R: the password field shown in clear, or hidden again.
    mutating func toggleReveal(_ field: String) {
        if revealed.contains(field) { revealed.remove(field) } else { revealed.insert(field) }
    }

    /// Every password hidden again (a screen shown in a demo's masked mode).
    mutating func hideAll() { revealed = [] }

    /// Digits typed into a slider, range or date: the next digit adds to them.
    mutating func typeNumber(in field: String, digits: String? = nil) {
        typingNumber = field
        if let digits { typedDigits = digits }
    }

    /// The next digit starts a number over.
    mutating func stopTypingNumber() { typingNumber = nil }

    // MARK: The draft

    /// A key changed a value at `now`: the draft is saved once typing pauses.
    mutating func edited(at now: Int64) { editedAt = now }

    /// The progress was saved, draft and all: nothing waits for a pause.
    mutating func draftSaved() { editedAt = nil }
}
