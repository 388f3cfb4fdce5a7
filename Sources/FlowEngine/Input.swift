import ScreenTable

/// Keys on a screen, as intents: focus, Enter, Esc, typing and editing, shortcuts, and
/// what a button or an option then does.
extension FlowEngine {
    func handle(_ intent: Intent, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        if intent == .quit {
            if state.phase == .showing, let screen = currentScreen(state) { saveDraft(screen, &state, effects: &effects) }
            state.phase = .finished
            effects.append(.quit)
            return
        }
        guard !state.isBusy, let screen = currentScreen(state) else { return }
        if intent == .activate, retryChecklist(screen, &state, now: now, effects: &effects) { return }
        let items = focusables(of: screen, state)
        let focused = items.indices.contains(state.form.focus) ? items[state.form.focus] : nil
        let field: Field? = if case .field(let index) = focused { screen.fields[index] } else { nil }
        switch intent {
        case .focusNext, .focusPrevious:
            guard !items.isEmpty else { return }
            moveFocus(
                to: (state.form.focus + (intent == .focusNext ? 1 : items.count - 1)) % items.count, on: screen, &state, effects: &effects)
        case .focus(let index):
            guard items.indices.contains(index), index != state.form.focus else { return }
            moveFocus(to: index, on: screen, &state, effects: &effects)
        case .left, .right, .pageUp, .pageDown, .home, .end:
            move(intent, in: field, focused: focused, items: items, on: screen, &state, now: now, effects: &effects)
        case .activate:
            activate(focused, items: items, on: screen, &state, now: now, effects: &effects)
        case .back:
            if screen.allowsBack { goBack(from: screen, &state, now: now, effects: &effects) }
        case .insert(let given), .paste(let given):
            let pasted = if case .paste = intent { true } else { false }
            let text = pasted ? Self.unwrapped(given) : given
            guard let field else {
                if !pasted, let character = text.first, text.count == 1 {
                    handle(.shortcut(character), &state, now: now, effects: &effects)
                }
                return
            }
            // Text cut to the field's limit keeps its note instead of a format check.
            if field.kind.behaviour.type(text, into: field, &state, engine: self) == .typed {
                revalidate(field, on: screen, &state, now: now, effects: &effects)
            }
            submitIfFull(field, on: screen, &state, now: now, effects: &effects)
        case .deleteBackward:
            guard let field else { return }
            field.kind.behaviour.deleteBackward(in: field, &state, engine: self)
            revalidate(field, on: screen, &state, now: now, effects: &effects)
        case .edit(let command):
            guard let field else { return }
            guard field.kind.editsAsText else {
                if field.kind.behaviour.edit(command, in: field, &state) {
                    revalidate(field, on: screen, &state, now: now, effects: &effects)
                }
                return
            }
            // Nothing is yanked into a password, unseen: an email cut from another field
            // became a password that way (readline's kill ring has no hidden fields).
            if command == .yank, field.kind == .password { return }
            let yanking = state.form.killed
            var killed: String?
            edit(field, &state) { editor in killed = editor.apply(command, yanking: yanking) }
            // A password never outlives its field, not even in the kill buffer.
            if let killed, field.kind != .password { state.form.keep(killed: killed) }
            if command == .yank { limit(field, &state) }
            revalidate(field, on: screen, &state, now: now, effects: &effects)
        case .toggleReveal:
            guard let field, field.kind == .password else { return }
            state.form.toggleReveal(field.id)
        case .shortcut(let character):
            if let action = screen.actions.first(where: { $0.key == character && holds($0.when, state) }) {
                press(action, on: screen, &state, now: now, effects: &effects)
            }
        case .setValue(let value):
            guard let field else { return }
            setValue(value, of: field, on: screen, &state, now: now, effects: &effects)
        case .quit:
            break
        }
    }

    private func moveFocus(to index: Int, on screen: Screen, _ state: inout FlowState, effects: inout [Effect]) {
        state.form.moveFocus(to: index)
        saveDraft(screen, &state, effects: &effects)
    }

    /// Arrows, PgUp/PgDn, Home/End: a text field's cursor, a widget's value, or along a
    /// row of buttons.
    private func move(
        _ intent: Intent, in field: Field?, focused: Focusable?, items: [Focusable], on screen: Screen, _ state: inout FlowState,
        now: Int64,
        effects: inout [Effect]
    ) {
        if let field {
            // A field's own meaning wins: the cursor moves within a text, a widget's value changes.
            switch field.kind.behaviour.move(intent, in: field, &state, engine: self, today: today(now, state)) {
            case .changed:
                revalidate(field, on: screen, &state, now: now, effects: &effects)
                return
            case .moved:
                return
            case .ignored:
                break
            }
        }
        guard intent == .left || intent == .right, case .action = focused else { return }
        let next = state.form.focus + (intent == .right ? 1 : -1)
        if items.indices.contains(next), case .action = items[next] { state.form.focus(on: next) }
    }

    /// Enter: submits from a form's last text field, moves on from another field, picks
    /// an option or presses a button.
    private func activate(
        _ focused: Focusable?, items: [Focusable], on screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]
    ) {
        switch focused {
        case .field(let index) where index == screen.fields.count - 1 && screen.fields[index].kind.editsAsText:
            // Enter in a form's last (or only) text field submits it, as huh and web
            // forms do: the first button that can be pressed.
            saveDraft(screen, &state, effects: &effects)
            if let submit = screen.actions.first(where: { holds($0.when, state) }) {
                press(submit, on: screen, &state, now: now, effects: &effects)
            }
        case .field:
            moveFocus(to: min(state.form.focus + 1, items.count - 1), on: screen, &state, effects: &effects)
        case .option(let index):
            pick(option: index, on: screen, &state, now: now, effects: &effects)
        case .action(let index):
            press(screen.actions[index], on: screen, &state, now: now, effects: &effects)
        case nil:
            break
        }
    }

    /// Front ends without keys: a text field as if cleared and pasted, a widget as chosen.
    /// A whole answer, given at once (accessible mode): checked by every rule now, not as
    /// typed, so what is wrong with it is said before the next question.
    private func setValue(_ value: Value, of field: Field, on screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect])
    {
        state.form.clearError(under: field.id)
        let field = resolved(field, state)
        if field.kind == .multi, let alone = field.exclusive, let picked = value.list, picked.contains(alone), picked.count > 1 {
            // The pills let "No preference" stand alone; a typed list is asked again.
            state.form.say("\(alone) goes by itself: pick it alone, or the others without it.", under: field.id)
            return
        }
        if field.kind.editsAsText {
            state.context.answer(field.id, .text(""))
            state.form.place(cursor: nil, in: field.id)
            handle(.paste(value.text ?? ""), &state, now: now, effects: &effects)
        } else {
            state.context.answer(field.id, value)
            revalidate(field, on: screen, &state, now: now, effects: &effects)
        }
        guard state.screenID == screen.id, !state.isBusy, state.form.errors[field.id] == nil else { return }
        if let rule = Validation.firstBroken(of: field, in: state.context.values, today: today(now, state)) {
            say(rule, brokenBy: field, on: screen, &state, effects: &effects)
        }
    }

    /// A button: refused while it cools down; else its `set` values, then its step.
    private func press(_ action: Action, on screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        if cooldownLeft(action, state, now: now) != nil {
            // The view words it from the time left, so it counts down and goes away.
            state.message = nil
            state.pressedWhileCooling = screen.actions.firstIndex(of: action)
            return
        }
        state.pressedWhileCooling = nil
        // An empty value forgets the key: no leftovers in the progress file.
        let consented = hasAnalyticsConsent(state)
        for (key, value) in action.sets { state.context.answer(key, value.isEmpty ? nil : .text(value)) }
        if consented, !hasAnalyticsConsent(state) { effects.append(.forgetAnalytics) }
        run(action.step, on: screen, validating: action.validates, &state, now: now, effects: &effects)
    }

    /// A code field with every box filled presses the screen's first button.
    private func submitIfFull(_ field: Field, on screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard field.submitsWhenFull, (state.context[field.id]?.text ?? "").count == field.maxLength,
            let action = screen.actions.first(where: { holds($0.when, state) })
        else { return }
        press(action, on: screen, &state, now: now, effects: &effects)
    }

    /// How long typing pauses before the draft is saved (ms): long enough that a burst of
    /// keys costs one write, short enough that a kill a moment later loses nothing.
    static let draftPause: Int64 = 500

    /// A key changed a value and nothing saved it yet: the draft waits for typing to
    /// pause. (A save takes the draft along, and a run QA forced saves nothing.)
    func noteTyping(since before: FlowContext, _ state: inout FlowState, now: Int64, effects: [Effect]) {
        let saved = effects.contains { if case .saveProgress = $0 { true } else { false } }
        guard state.context != before, !saved, !state.forcedByJump else { return }
        state.form.edited(at: now)
    }

    /// Typing paused for `draftPause`: what was typed is saved.
    func saveDraftIfTypingPaused(_ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard let edited = state.form.editedAt, now - edited >= Self.draftPause else { return }
        state.form.draftSaved()
        if state.phase == .showing, let screen = currentScreen(state) { saveDraft(screen, &state, effects: &effects) }
    }

    /// Saves what is on the screen so far, so a kill loses at most the field being typed.
    func saveDraft(_ screen: Screen, _ state: inout FlowState, effects: inout [Effect]) {
        guard screen.kind == .form, screen.resumable else { return }
        saveProgress(progress(at: screen.id, state), &state, effects: &effects)
    }

    private func pick(option index: Int, on screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard let choice = screen.choice else { return }
        let options = self.options(of: choice, state)
        guard options.indices.contains(index) else { return }
        state.context.answer(choice.store, .text(options[index]))
        run(choice.then, on: screen, &state, now: now, effects: &effects)
    }

    /// `validating: false` (a button that leads away) skips the form's rules.
    private func run(
        _ step: Step, on screen: Screen, validating: Bool = true, _ state: inout FlowState, now: Int64, effects: inout [Effect]
    ) {
        state.message = nil
        let valid = { (state: inout FlowState, effects: inout [Effect]) in
            !validating || validate(screen, &state, now: now, effects: &effects)
        }
        switch step {
        case .go(let target):
            guard valid(&state, &effects) else { return }
            go(to: target, &state, now: now, effects: &effects)
        case .back:
            goBack(from: screen, &state, now: now, effects: &effects)
        case .call(let call):
            guard valid(&state, &effects) else { return }
            start(call, from: .step(screen: screen.id, call: call), &state, now: now, effects: &effects)
        case .retry:
            retry(&state, now: now, effects: &effects)
        case .notice(let text):
            state.message = .notice(text)
        case .quit:
            state.phase = .finished
            effects.append(.quit)
        case .branch(let branches):
            guard valid(&state, &effects), let target = branches.first(where: { holds($0.when, state) })?.go else { return }
            go(to: target, &state, now: now, effects: &effects)
        }
    }
}

extension FlowEngine {
    /// A paste of text as Onboard drew it: a long word is broken at the card's edge with a
    /// wrap mark (`↩`, or `\` without Unicode) before the line's end. The mark, the line
    /// break and the next line's margin (and a card's side, `│` or `|`) are Onboard's own,
    /// not the text: a link copied from a 40-column screen pastes whole.
    static func unwrapped(_ text: String) -> String {
        guard text.contains("↩") || text.contains("\\") else { return text }
        var result = ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        var current = lines.next().map(String.init) ?? ""
        while let next = lines.next() {
            let trimmed = current.trimmingTrailing { $0 == " " || $0 == "\r" || $0 == "│" || $0 == "|" }
            if trimmed.hasSuffix("↩") || trimmed.hasSuffix("\\") {
                result += trimmed.dropLast()
                current = String(next.drop { $0 == " " || $0 == "│" || $0 == "|" })
            } else {
                result += current + "\n"
                current = String(next)
            }
        }
        let last = current.trimmingTrailing { $0 == " " || $0 == "│" || $0 == "|" }
        return result + (last.hasSuffix("↩") ? String(last.dropLast()) : current)
    }
}

extension String {
    /// Without the characters at its end that `drop` says to drop.
    func trimmingTrailing(while drop: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
