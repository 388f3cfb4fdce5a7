import CivilCalendar
import InputRules
import ScreenTable

/// The flow's rules as the engine applies them: guards, field validation (on submit and
/// as you type), cooldowns, "today", and what can hold focus.
extension FlowEngine {
    /// Whether a guard holds; no guard always does.
    func holds(_ guardian: Guard?, _ state: FlowState) -> Bool {
        guard let guardian else { return true }
        let value: Bool
        switch guardian.name {
        case .isAnonymous: value = state.session?.isAnonymous ?? false
        case .isSignedIn: value = state.session.map { !$0.isAnonymous } ?? false
        case .hasPro: value = state.context["pro"]?.text == "true"
        case .hasChildren: value = !(state.context["children"]?.list ?? []).isEmpty
        case .profileComplete: value = state.context["profile_complete"]?.text == "true"
        case .equals: value = state.context[guardian.key ?? ""]?.text == guardian.value
        case .has:
            let held = state.context[guardian.key ?? ""]
            value = !(held?.text ?? "").isEmpty || !(held?.list ?? []).isEmpty
        }
        return value != guardian.negated
    }

    /// Runs every field's rules; the first failure of each field is shown under it.
    func validate(_ screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) -> Bool {
        guard screen.kind == .form else { return true }
        state.form.clearErrors()
        for field in screen.fields {
            if let rule = Validation.firstBroken(of: field, in: state.context.values, today: today(now, state)) {
                say(rule, brokenBy: field, on: screen, &state, effects: &effects)
            }
        }
        if let firstBad = screen.fields.firstIndex(where: { state.form.errors[$0.id] != nil }) {
            state.form.focus(on: firstBad)
            return false
        }
        return true
    }

    /// As you type: a field whose format can be judged (email, a match, a number, a
    /// range) is checked once it has a value, and so is any field that must match it.
    func revalidate(_ field: Field, on screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        var values: [String: String] = [:]
        for each in screen.fields { values[each.id] = state.context[each.id]?.text ?? "" }
        var judged: Set<Rule.Name> = [
            .email, .matches, .positiveNumber, .letters, .personName, .alphanumeric, .minValue, .maxValue, .ordered,
        ]
        // A password's length is judged as it is typed too, like its match (RuckTracker),
        // and whether it is one of the most common: the service's own rule, said at once.
        if field.kind == .password { judged.formUnion([.minLength, .notCommon]) }
        let dependents = screen.fields.filter { other in other.rules.contains { $0.name == .matches && $0.field == field.id } }
        for candidate in [field] + dependents where !(values[candidate.id] ?? "").isEmpty {
            let live = Field(
                id: candidate.id, kind: candidate.kind, label: candidate.label, rules: candidate.rules.filter { judged.contains($0.name) })
            if let rule = Validation.firstBroken(of: live, in: values.mapValues(Value.text), today: today(now, state))
                ?? Self.phoneTooLong(candidate, values)
            {
                say(rule, brokenBy: candidate, on: screen, &state, effects: &effects)
            } else {
                state.form.clearError(under: candidate.id)
            }
        }
    }

    /// Says a broken rule's message under its field, and tells QA's coverage which rule
    /// it was (the coverage log keeps each once).
    func say(_ rule: Rule, brokenBy field: Field, on screen: Screen, _ state: inout FlowState, effects: inout [Effect]) {
        state.form.say(rule.message, under: field.id)
        effects.append(.reached(.message(screen: screen.id, field: field.id, rule: rule.name.rawValue)))
    }

    /// A phone number longer than any its country has is said as it is typed (a shorter
    /// one may still be on its way): the `phone` rule.
    static func phoneTooLong(_ field: Field, _ values: [String: String]) -> Rule? {
        guard field.kind == .phone, let rule = field.rules.first(where: { $0.name == .phone }),
            let number = PhoneNumber(country: rule.field.flatMap { values[$0] } ?? "", digits: values[field.id] ?? ""),
            let longest = InputRules.numberingPlans[number.countryCode]?.lengths.max(), number.national.count > longest
        else { return nil }
        return rule
    }

    /// Whole seconds until a cooling button can be pressed; nil when it can.
    func cooldownLeft(_ action: Action, _ state: FlowState, now: Int64) -> Int? {
        guard let cooldown = action.cooldown else { return nil }
        // From the button's own call's last success when there is one, else from the
        // screen's arrival (or its last successful call).
        var from = state.screenSince
        if case .call(let call) = action.step, let succeeded = state.calls.lastSucceeded[call.operation] { from = succeeded }
        let readyAt = from + cooldown * 1000
        guard now < readyAt else { return nil }
        return Int((readyAt - now + 999) / 1000)
    }

    func today(_ now: Int64, _ state: FlowState) -> CivilDate {
        CivilDate(milliseconds: now, utcOffset: state.utcOffset)
    }

    /// Fields, then options, then actions: the Tab order (`.focus(i)` takes its index).
    public func focusables(of screen: Screen, _ state: FlowState) -> [Focusable] {
        var items = screen.fields.indices.map(Focusable.field)
        if let choice = screen.choice {
            items += options(of: choice, state).indices.map(Focusable.option)
        }
        if screen.kind == .checklist, !checklistDone(state) { return items }
        items += screen.actions.indices.filter { holds(screen.actions[$0].when, state) }.map(Focusable.action)
        return items
    }

    func options(of choice: Choice, _ state: FlowState) -> [String] {
        switch choice.options {
        case .fixed(let options): options
        case .context(let key): state.context[key]?.list ?? []
        }
    }
}
