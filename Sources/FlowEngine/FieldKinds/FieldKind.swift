import CivilCalendar
import ScreenTable

/// What one kind of field does, side by side, as huh keeps `field_input` and
/// `field_select`: its first value, its keys, what typing into it does, what its view
/// shows beyond the value, the widget that draws it, and how the line prompter asks for
/// it. One type per kind, one file each; the reducer, the renderer and the authoring
/// tools ask `field.kind` (through `behaviour`), never switch over kinds themselves. A
/// new kind is its word in `Field.Kind`, its line in `behaviour`, its file here and, if
/// no widget draws it yet, its widget.
protocol FieldKind: Sendable {
    /// Typed as a line of text with a cursor (readline's keys; a whole answer arrives as
    /// a paste); otherwise the arrows change the value.
    var editsAsText: Bool { get }
    /// The widget that draws its value.
    var widget: FieldWidget { get }
    /// The value that leaves it empty (what `required` refuses).
    var emptyValue: Value { get }
    /// Its widget never leaves `minimum`…`maximum`, so a rule at a bound cannot fail.
    var keepsWithinBounds: Bool { get }
    /// The value on arrival when the context has none.
    func initialValue(of field: Field, today: CivilDate) -> Value?
    /// Arrows, PgUp/PgDn, Home/End.
    func move(_ intent: Intent, in field: Field, _ state: inout FlowState, engine: FlowEngine, today: CivilDate) -> KeyResult
    /// Typed or pasted text.
    func type(_ text: String, into field: Field, _ state: inout FlowState, engine: FlowEngine) -> Typing
    /// Backspace.
    func deleteBackward(in field: Field, _ state: inout FlowState, engine: FlowEngine)
    /// A readline editing key on a kind not edited as text: whether it did something
    /// (a date clears on Ctrl-U). Text kinds go through `LineEditor` instead.
    func edit(_ command: TextEdit, in field: Field, _ state: inout FlowState) -> Bool
    /// What the view shows beyond label and value: a caret, an age, grouped digits.
    func decorate(_ view: inout ScreenView.FieldView, of field: Field, _ state: FlowState, engine: FlowEngine, today: CivilDate)
    /// How the line prompter asks for a value.
    func question(for view: ScreenView.FieldView) -> LineQuestion
    /// Its own keys, for the help line while it has focus.
    func keys(for view: ScreenView.FieldView) -> [KeyHint]
    /// PgUp/PgDn step its value (a date's month, a slider's five) instead of scrolling the screen.
    var takesPageKeys: Bool { get }
}

extension FieldKind {
    var editsAsText: Bool { false }
    var widget: FieldWidget { .textBox }
    var emptyValue: Value { .text("") }
    var keepsWithinBounds: Bool { false }
    func initialValue(of field: Field, today: CivilDate) -> Value? { nil }
    func edit(_ command: TextEdit, in field: Field, _ state: inout FlowState) -> Bool { false }
    func decorate(_ view: inout ScreenView.FieldView, of field: Field, _ state: FlowState, engine: FlowEngine, today: CivilDate) {}
    var takesPageKeys: Bool { false }
}

/// A key the help line names while a field has focus: `←/→ adjust`.
public struct KeyHint: Equatable, Sendable {
    /// What the key does for the person: works the widget, moves the form on (Space
    /// picks a pill, without which nothing goes on), or edits text.
    public enum Role: Equatable, Sendable { case widget, forward, editing }
    public var keys: String
    public var meaning: String
    public var role: Role

    init(_ keys: String, _ meaning: String, _ role: Role = .widget) {
        (self.keys, self.meaning, self.role) = (keys, meaning, role)
    }
}

extension ScreenView.FieldView {
    /// The focused field's own keys, as its kind says.
    public var keyHints: [KeyHint] { kind.behaviour.keys(for: self) }
    /// PgUp/PgDn belong to this field (see `FieldKind.takesPageKeys`).
    public var takesPageKeys: Bool { kind.behaviour.takesPageKeys }
}

/// What a movement key did to a field.
enum KeyResult: Equatable {
    /// Not this field's key (Left/Right then move along the buttons).
    case ignored
    /// The cursor moved; the value is as it was.
    case moved
    /// The value changed: it is judged again.
    case changed
}

/// What typing into a field did.
enum Typing: Equatable {
    case typed
    /// Typed, but cut to the field's limit (the field says so instead of a format check).
    case cut
}

/// How the line prompter (accessible mode) asks for a field's value.
public enum LineQuestion: Sendable {
    /// One of the view's options, by number.
    case choice
    /// Some of the view's options, by numbers separated by commas.
    case choices
    /// A line of text as typed (without echo for a password); Enter keeps the value.
    case text
    /// A line `parse` turns into the value, nil while it cannot; `prompt` says what to
    /// type. Enter keeps the value.
    case parsed(prompt: String, parse: @Sendable (String) -> Value?)
}

/// The widgets that draw a field's value (`TerminalUI/Widgets`).
public enum FieldWidget: Sendable, Equatable {
    /// A line of text with a cursor, and a hint beside it.
    case textBox
    /// A row of boxes, one per character.
    case codeBoxes
    /// One option of several, changed in place.
    case picker
    /// Any of several options, as pills.
    case pills
    /// A slider, or a range's two handles.
    case slider
}

extension Field.Kind {
    /// The one place a flow file's word for a kind meets its behaviour.
    var behaviour: any FieldKind {
        switch self {
        case .text, .email, .password, .url: TextFieldKind()
        case .phone: DigitsFieldKind(boxes: false)
        case .code: DigitsFieldKind(boxes: true)
        case .date: DateFieldKind()
        case .select: SelectFieldKind()
        case .multi: MultiFieldKind()
        case .slider, .range: NumberFieldKind()
        }
    }

    /// Typed as a line of text with a cursor (phone and code take digits only); dates,
    /// pickers and sliders change their value with the arrows instead.
    public var editsAsText: Bool { behaviour.editsAsText }
    public var widget: FieldWidget { behaviour.widget }
    public var emptyValue: Value { behaviour.emptyValue }
    public var keepsWithinBounds: Bool { behaviour.keepsWithinBounds }
}

extension FlowEngine {
    /// The field with its options filled from the context when it takes them from there.
    func resolved(_ field: Field, _ state: FlowState) -> Field {
        guard let key = field.optionsFrom else { return field }
        var field = field
        field.options = state.context[key]?.list ?? []
        return field
    }

    /// How the line prompter asks for this field.
    public func question(for view: ScreenView.FieldView) -> LineQuestion {
        view.kind.behaviour.question(for: view)
    }
}
