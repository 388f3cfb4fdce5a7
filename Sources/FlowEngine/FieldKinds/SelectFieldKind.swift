import CivilCalendar
import ScreenTable

/// One of a list (a country): Left/Right step through it, a letter jumps to the next
/// option starting with it.
struct SelectFieldKind: FieldKind {
    var widget: FieldWidget { .picker }

    func keys(for view: ScreenView.FieldView) -> [KeyHint] { [KeyHint("←/→", "change")] }

    func initialValue(of field: Field, today: CivilDate) -> Value? {
        field.initial.map(Value.text)
    }

    func move(_ intent: Intent, in field: Field, _ state: inout FlowState, engine: FlowEngine, today: CivilDate) -> KeyResult {
        let field = engine.resolved(field, state)
        guard intent == .left || intent == .right, !field.options.isEmpty else { return .ignored }
        let current = field.options.firstIndex(of: state.context[field.id]?.text ?? "")
        let count = field.options.count
        let next = current.map { ($0 + (intent == .right ? 1 : count - 1)) % count } ?? (intent == .right ? 0 : count - 1)
        state.answer(field.id, .text(field.options[next]))
        return .changed
    }

    func type(_ text: String, into field: Field, _ state: inout FlowState, engine: FlowEngine) -> Typing {
        let field = engine.resolved(field, state)
        guard let letter = text.first?.lowercased(), !field.options.isEmpty else { return .typed }
        let current = field.options.firstIndex(of: state.context[field.id]?.text ?? "") ?? -1
        let order = field.options.indices.map { (current + 1 + $0) % field.options.count }
        if let match = order.first(where: { field.options[$0].lowercased().hasPrefix(letter) }) {
            state.answer(field.id, .text(field.options[match]))
        }
        return .typed
    }

    /// Backspace has nothing to delete in a picker.
    func deleteBackward(in field: Field, _ state: inout FlowState, engine: FlowEngine) {}

    func question(for view: ScreenView.FieldView) -> LineQuestion { .choice }
}
