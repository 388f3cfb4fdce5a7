import InputRules
import ScreenTable

/// The cursor inside a text field and what moves it, on top of `LineEditor`. The cursor
/// is kept in `FormState.cursor` only while it is not at the end, so typing at the end
/// (most typing) leaves the state as it always was.
extension FlowEngine {
    /// The field's text and cursor as an editor.
    func editor(for field: Field, _ state: FlowState) -> LineEditor {
        LineEditor(state.context[field.id]?.text ?? "", cursor: state.form.cursor[field.id])
    }

    /// Runs `change` on the field's editor and keeps the result.
    func edit(_ field: Field, _ state: inout FlowState, _ change: (inout LineEditor) -> Void) {
        var editor = editor(for: field, state)
        change(&editor)
        state.context.answer(field.id, .text(editor.text))
        state.form.place(cursor: editor.atEnd ? nil : editor.cursor, in: field.id)
        state.form.clearError(under: field.id)
    }

    func moveCursor(in field: Field, _ intent: Intent, _ state: inout FlowState) {
        var editor = editor(for: field, state)
        switch intent {
        case .left: editor.moveLeft()
        case .right: editor.moveRight()
        case .home: editor.moveToStart()
        case .end: editor.moveToEnd()
        default: return
        }
        state.form.place(cursor: editor.atEnd ? nil : editor.cursor, in: field.id)
    }

    /// Inserts `text` at the cursor, as much as the field's limit leaves room for; says
    /// so on the field when some was left out. Returns whether it was cut.
    @discardableResult
    func insert(_ text: String, into field: Field, unit: String, _ state: inout FlowState) -> Bool {
        let room = max(0, field.maxLength - (state.context[field.id]?.text ?? "").count)
        let cut = text.count > room
        edit(field, &state) { editor in editor.insert(String(text.prefix(room))) }
        if cut { state.form.say("Only \(field.maxLength) \(unit) fit here; the rest was left out.", under: field.id) }
        return cut
    }

    /// After a yank: a field holds no more than its limit, or digits where it takes digits.
    func limit(_ field: Field, _ state: inout FlowState) {
        var text = state.context[field.id]?.text ?? ""
        if field.kind == .phone || field.kind == .code { text = text.filter(\.isASCIIDigit) }
        guard text != state.context[field.id]?.text || text.count > field.maxLength else { return }
        state.context.answer(field.id, .text(String(text.prefix(field.maxLength))))
        state.form.place(cursor: nil, in: field.id)
    }
}
