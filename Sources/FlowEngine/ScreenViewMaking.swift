import CivilCalendar
import InputRules
import ScreenTable

/// The engine makes the view: what the current screen shows, as a pure function of the
/// state. Front ends (the terminal's renderer, the line prompter) read only this value.
extension FlowEngine {
    /// The view of the engine's current screen. Before any screen (a silent renewal on
    /// launch) it is an empty page with a quiet spinner.
    /// `now` (ms) counts down cooling buttons; nil shows them as just shown.
    /// `masking` (a recording): passwords stay dots even when revealed, and codes and the
    /// flow's `secrets` show as dots.
    public func view(of state: FlowState, now: Int64? = nil, masking: Bool = false) -> ScreenView {
        let state = masking ? masked(state) : state
        var view = ScreenView()
        view.warnings = state.warnings + state.storageProblems
        view.notes = state.notes
        guard let screen = currentScreen(state), state.phase == .showing || state.phase == .finished else {
            view.busyLabel = ""
            return view
        }
        let fill = { (text: String) in Placeholders.fill(text, from: state.context.values, now: now ?? state.screenSince) }
        let focusables = focusables(of: screen, state)
        let focused = focusables.indices.contains(state.form.focus) ? focusables[state.form.focus] : nil
        view.kind = screen.kind
        view.logo = screen.logo
        view.title = fill(screen.title)
        // A last line that was only an empty placeholder leaves no gap. A poll that has
        // ended here (its code expired) takes its instructions with it: the code and its
        // countdown would say it is still good; the outcome's message says what happened.
        let pollEnded = state.calls.pollEnded == screen.id
        var body = pollEnded ? "" : fill(screen.body)
        while body.hasSuffix("\n") { body.removeLast() }
        view.body = body
        view.bullets = screen.bullets.map(fill)
        view.fields = screen.fields.enumerated().map { index, field in
            fieldView(field, focused: focused == .field(index), state: state, now: now ?? state.screenSince)
        }
        if let step = screen.step, let count = flow.stepCount {
            view.stepLabel = "Step \(step) of \(count)"
        }
        if let choice = screen.choice {
            view.options = options(of: choice, state).enumerated().map { index, option in
                ScreenView.ItemView(label: option, focused: focused == .option(index))
            }
        }
        view.buttons = screen.actions.enumerated().filter { holds($0.element.when, state) }.map { index, action in
            if let wait = cooldownLeft(action, state, now: now ?? state.screenSince) {
                return ScreenView.ItemView(label: "\(action.label) (\(wait) s)", focused: focused == .action(index), waiting: true)
            }
            var item = ScreenView.ItemView(label: action.label, focused: focused == .action(index))
            item.shortcut = action.key
            item.linkPrompt = action.linkPrompt
            return item
        }
        if let key = screen.items {
            let rows = state.context[key]?.list ?? []
            view.items = screen.newestFirst ? rows.reversed() : rows
            view.emptyItems = rows.isEmpty ? fill(screen.empty) : ""
        }
        // A recording shows no QR code of a masked value: dots would make a code of dots.
        if let key = screen.qr, !pollEnded, !(masking && flow.maskedKeys.contains(key)), let text = state.context[key]?.text, !text.isEmpty
        {
            view.qr = text
        }
        view.message = state.message
        if let index = state.pressedWhileCooling, screen.actions.indices.contains(index),
            let wait = cooldownLeft(screen.actions[index], state, now: now ?? state.screenSince)
        {
            view.message = .notice("You can do this in \(wait) s.")
        }
        view.canGoBack = screen.allowsBack && !state.history.isEmpty
        if screen.kind == .checklist {
            view.checklist = zip(screen.tasks, state.checklist.tasks).map { ScreenView.ChecklistLine(label: $0.label, status: $1) }
            // Its buttons lead on once every task has an outcome; until then there are none.
            if !checklistDone(state) { view.buttons = [] }
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

    private func masked(_ state: FlowState) -> FlowState {
        var state = state
        state.form.hideAll()
        for key in flow.maskedKeys {
            if case .text(let text)? = state.context[key], !text.isEmpty {
                state.context.answer(key, .text(String(repeating: "•", count: min(text.count, 12))))
            }
        }
        return state
    }

    private func fieldView(_ field: Field, focused: Bool, state: FlowState, now: Int64) -> ScreenView.FieldView {
        let field = resolved(field, state)
        var view = ScreenView.FieldView(
            label: field.label, value: state.context[field.id]?.text ?? "", placeholder: field.placeholder,
            error: state.form.errors[field.id], focused: focused,
            secret: field.kind == .password && !state.form.revealed.contains(field.id), kind: field.kind)
        view.options = field.options
        view.picked = state.context[field.id]?.list ?? []
        view.cursor = state.form.cursor[field.id] ?? 0
        view.minimum = field.minimum
        view.maximum = field.maximum
        view.length = field.maxLength
        field.kind.behaviour.decorate(&view, of: field, state, engine: self, today: today(now, state))
        return view
    }
}
