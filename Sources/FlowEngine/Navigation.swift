import ScreenTable

/// Moving between screens: forward (keeping the Back history), arriving (a screen's
/// defaults, analytics, saved progress and its calls), back, and an outcome's move.
extension FlowEngine {
    func go(to id: String, _ state: inout FlowState, message: FlowState.Message? = nil, now: Int64, effects: inout [Effect]) {
        if let current = state.screenID, current != id, let screen = flow.screen(current), screen.resumable {
            state.history.append(current)
        }
        arrive(at: id, &state, message: message, now: now, effects: &effects)
    }

    func arrive(at id: String, _ state: inout FlowState, message: FlowState.Message? = nil, now: Int64, effects: inout [Effect]) {
        guard let screen = flow.screen(id) else { return }
        effects.append(.reached(.screen(id)))
        if screen.kind == .route {
            if let target = screen.route.first(where: { holds($0.when, state) })?.go {
                arrive(at: target, &state, message: message, now: now, effects: &effects)
            }
            return
        }
        for field in screen.fields where state.context[field.id] == nil || state.context[field.id] == .text("") {
            if let initial = field.kind.behaviour.initialValue(of: field, today: today(now, state)) { state.context[field.id] = initial }
        }
        state.screenSince = now
        state.form.typingNumber = nil
        for field in screen.fields where field.kind.editsAsText { state.form.cursor[field.id] = nil }
        if state.screenID != nil, state.screenID != id { state.warnings = [] }
        state.screenID = id
        state.form.errors = [:]
        state.message = message
        state.pressedWhileCooling = nil
        state.form.focus = 0
        state.phase = .showing

        if id == flow.entry.firstLaunch, !state.onboardingComplete {
            if state.startedAt == nil { state.startedAt = now }
            if let start = flow.analytics.start { track(start, &state, now: now, effects: &effects) }
        }
        for name in screen.track { track(name, &state, now: now, effects: &effects) }
        if let name = flow.analytics.step, let step = screen.step {
            track(name, with: ["step": .number(Int64(step))], &state, now: now, effects: &effects)
        }

        if screen.completesOnboarding, !state.onboardingComplete, !state.forcedByJump {
            state.onboardingComplete = true
            state.calls.lastFailure = nil
            state.calls.retries = 0
            if var session = state.session {
                session.onboardingComplete = true
                state.session = session
                effects.append(.saveSession(session))
            }
            if let complete = flow.analytics.complete {
                let duration = state.startedAt.map { max(0, now - $0) } ?? 0
                track(complete, with: ["duration_ms": .number(duration)], &state, now: now, effects: &effects)
            }
        }
        if screen.resumable {
            effects.append(.saveProgress(progress(at: id, state)))
        }
        if let call = screen.call {
            start(call, from: .arrival(screen: id), &state, now: now, effects: &effects)
        }
        if screen.kind == .checklist {
            startChecklist(screen, &state, now: now, effects: &effects)
        }
        for operation in screen.load {
            issue(operation, for: .background, &state, now: now, effects: &effects)
        }
    }

    /// QA's jump: straight to a screen, dropping what the user waited for. A screen the
    /// flow reaches only under guards that do not hold now is refused with the reason (a
    /// guest's "confirm sign out" would orphan it); any other marks the run forced.
    func jump(to id: String, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard flow.screen(id) != nil else { return }
        if let refusal = jumpRefusal(to: id, state) {
            state.message = .error(refusal)
            return
        }
        state.calls.abandonForeground()
        state.phase = .showing
        state.forcedByJump = true
        go(to: id, &state, now: now, effects: &effects)
    }

    /// Why a jump to `id` is refused now: no way from the flow's entries reaches it through
    /// guards on who is signed in that hold in this state (a guest's Sign Out sits behind
    /// `is_signed_in`). Guards on what the person has done (`has_pro`, a value) are taken
    /// as met: skipping those is what a jump is for, and a forced run records nothing.
    public func jumpRefusal(to id: String, _ state: FlowState) -> String? {
        func holds(_ guardian: Guard, _ state: FlowState) -> Bool {
            [.isAnonymous, .isSignedIn].contains(guardian.name) ? self.holds(guardian, state) : true
        }
        let entries = [flow.entry.firstLaunch, flow.entry.signedIn, flow.entry.signedOut, flow.entry.sessionEnded].compactMap { $0 }
        var reached = Set<String>()
        var blocked: [(to: String, guards: [Guard])] = []
        var pending = entries
        while let screen = pending.popLast() {
            guard reached.insert(screen).inserted, let from = flow.screen(screen) else { continue }
            for way in ways(from: from) {
                if way.guards.allSatisfy({ holds($0, state) }) { pending.append(way.to) } else { blocked.append(way) }
            }
        }
        guard !reached.contains(id) else { return nil }
        // The guards in the way: those on steps out of what is reachable towards `id`.
        let leadsThere = Reachability.leadingTo(id, in: flow)
        let needs = Set(blocked.filter { leadsThere.contains($0.to) && !reached.contains($0.to) }
            .map { $0.guards.filter { !holds($0, state) }.map(\.text).joined(separator: " and ") })
        let reason = needs.isEmpty ? "" : " (it needs \(needs.sorted().joined(separator: ", or ")))"
        return "QA: the flow cannot reach \(id) in this state\(reason), so it was not opened."
    }

    /// Each screen `screen` leads to directly, with the guards on that step.
    private func ways(from screen: Screen) -> [(to: String, guards: [Guard])] {
        var ways = Self.firstMatch(screen.route, under: [])
        func follow(_ step: Step, under guards: [Guard]) {
            switch step {
            case .go(let to): ways.append((to, guards))
            case .branch(let branches): ways += Self.firstMatch(branches, under: guards)
            case .call(let call): ways += call.outcomes.values.compactMap(\.go).map { ($0, guards) }
            case .back, .retry, .notice, .quit: break
            }
        }
        for action in screen.actions { follow(action.step, under: action.when.map { [$0] } ?? []) }
        if let choice = screen.choice { follow(choice.then, under: []) }
        if let call = screen.call { ways += call.outcomes.values.compactMap(\.go).map { ($0, []) } }
        return ways
    }

    /// Branches taken in order, the first whose guard holds: each holds only where every
    /// branch before it does not ("otherwise" after `is_anonymous` is `not is_anonymous`).
    private static func firstMatch(_ branches: [Branch], under guards: [Guard]) -> [(to: String, guards: [Guard])] {
        var earlier: [Guard] = []
        return branches.map { branch in
            defer { if let when = branch.when { earlier.append(Guard(when.name, negated: !when.negated, key: when.key, value: when.value)) } }
            return (branch.go, guards + earlier + (branch.when.map { [$0] } ?? []))
        }
    }

    func progress(at screen: String, _ state: FlowState) -> SavedProgress {
        SavedProgress(
            screen: screen, context: state.context.filter { !secretKeys.contains($0.key) },
            onboardingComplete: state.onboardingComplete, startedAt: state.startedAt,
            placeholderUserID: state.placeholderUserID, requiresSession: state.session != nil,
            // Back from the resume point: the history up to it (a spinner's resume point is
            // the screen before it, already the history's last).
            history: Array(state.history.prefix { $0 != screen })
        )
    }

    /// Back to the previous screen, by Esc, a Back button or an outcome. A form left this
    /// way is abandoned: its passwords go, so none pre-fills another form that uses the
    /// same key (RuckTracker's Log In after Add Email). Forward moves keep them (Baby
    /// Basics' Log In Instead carries what was typed).
    func goBack(from screen: Screen, _ state: inout FlowState, message: FlowState.Message? = nil, now: Int64, effects: inout [Effect]) {
        guard let previous = state.history.popLast() else { return }
        for field in screen.fields where field.kind == .password { state.context[field.id] = nil }
        arrive(at: previous, &state, message: message, now: now, effects: &effects)
    }

    func follow(_ outcome: Outcome?, _ state: inout FlowState, now: Int64, effects: inout [Effect], isError: Bool = false) {
        let message = outcome?.message.map { isError ? FlowState.Message.error($0) : .notice($0) }
        if outcome?.back == true, let screen = currentScreen(state), !state.history.isEmpty {
            goBack(from: screen, &state, message: message, now: now, effects: &effects)
        } else if let target = outcome?.go {
            go(to: target, &state, message: message, now: now, effects: &effects)
        } else if let message {
            state.message = message
            // Done and staying here (ABBY's "We sent a new code."): what comes next is
            // typed, so the form's first field takes the keys, not the button just pressed.
            if !isError, currentScreen(state)?.fields.isEmpty == false { state.form.focus = 0 }
        }
    }
}
