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

        if screen.completesOnboarding, !state.onboardingComplete {
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

    /// QA's jump: straight to a screen, dropping what the user waited for.
    func jump(to id: String, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard flow.screen(id) != nil else { return }
        state.calls.abandonForeground()
        state.phase = .showing
        go(to: id, &state, now: now, effects: &effects)
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
        }
    }
}
