import CivilCalendar
import ScreenTable

/// Text, email, password and URL fields: a line edited like readline's (`LineEditor`).
struct TextFieldKind: FieldKind {
    var editsAsText: Bool { true }

    /// In a text field the arrows move the cursor, whatever they do elsewhere on the
    /// screen (docs/using.md: keys); a password shows or hides with Ctrl-R.
    func keys(for view: ScreenView.FieldView) -> [KeyHint] {
        (view.isPassword ? [KeyHint("Ctrl-R", view.secret ? "show" : "hide")] : [])
            + (view.value.isEmpty ? [] : [KeyHint("←/→", "edit", .editing)])
    }

    func move(_ intent: Intent, in field: Field, _ state: inout FlowState, engine: FlowEngine, today: CivilDate) -> KeyResult {
        // A text field's own meaning wins: the cursor moves within the text.
        engine.moveCursor(in: field, intent, &state)
        return .moved
    }

    func type(_ text: String, into field: Field, _ state: inout FlowState, engine: FlowEngine) -> Typing {
        let printable = String(
            text.filter { character in
                !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
            })
        return engine.insert(printable, into: field, unit: "characters", &state) ? .cut : .typed
    }

    func deleteBackward(in field: Field, _ state: inout FlowState, engine: FlowEngine) {
        engine.edit(field, &state) { editor in editor.deleteBackward() }
    }

    func decorate(_ view: inout ScreenView.FieldView, of field: Field, _ state: FlowState, engine: FlowEngine, today: CivilDate) {
        view.caret = engine.editor(for: field, state).cursor
    }

    func question(for view: ScreenView.FieldView) -> LineQuestion { .text }
}
