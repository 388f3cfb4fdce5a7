import CivilCalendar
import ScreenTable

/// Some of a list, as pills: Left/Right (Home/End) move the highlight, Space picks or
/// unpicks it, a letter moves to the option starting with it. An `exclusive` option
/// ("No preference") stands alone.
struct MultiFieldKind: FieldKind {
    var widget: FieldWidget { .pills }
    var emptyValue: Value { .list([]) }

    /// Nothing goes on without a pick: Space stays on the help line as long as Enter does.
    func keys(for view: ScreenView.FieldView) -> [KeyHint] { [KeyHint("←/→", "move"), KeyHint("Space", "pick", .forward)] }

    func initialValue(of field: Field, today: CivilDate) -> Value? {
        .list([])
    }

    func move(_ intent: Intent, in field: Field, _ state: inout FlowState, engine: FlowEngine, today: CivilDate) -> KeyResult {
        let field = engine.resolved(field, state)
        guard [.left, .right, .home, .end].contains(intent), !field.options.isEmpty else { return .ignored }
        let current = state.form.cursor[field.id] ?? 0
        let next =
            switch intent {
            case .left: max(0, current - 1)
            case .right: min(field.options.count - 1, current + 1)
            case .home: 0
            default: field.options.count - 1
            }
        state.form.place(cursor: next, in: field.id)
        return .moved
    }

    func type(_ text: String, into field: Field, _ state: inout FlowState, engine: FlowEngine) -> Typing {
        let field = engine.resolved(field, state)
        // Keys typed quickly arrive together: each is its own press.
        for key in text {
            if key == " " {
                toggle(field, at: state.form.cursor[field.id] ?? 0, &state)
            } else if let match = field.options.firstIndex(where: { $0.lowercased().hasPrefix(key.lowercased()) }) {
                state.form.place(cursor: match, in: field.id)
            }
        }
        return .typed
    }

    /// Backspace has nothing to delete among pills.
    func deleteBackward(in field: Field, _ state: inout FlowState, engine: FlowEngine) {}

    func question(for view: ScreenView.FieldView) -> LineQuestion { .choices }

    private func toggle(_ field: Field, at index: Int, _ state: inout FlowState) {
        guard field.options.indices.contains(index) else { return }
        let option = field.options[index]
        var picked = state.context[field.id]?.list ?? []
        if let position = picked.firstIndex(of: option) {
            picked.remove(at: position)
        } else if option == field.exclusive {
            picked = [option]
        } else {
            picked.removeAll { $0 == field.exclusive }
            picked.append(option)
        }
        // Kept in the order the options are listed.
        state.answer(field.id, .list(field.options.filter(picked.contains)))
    }
}
