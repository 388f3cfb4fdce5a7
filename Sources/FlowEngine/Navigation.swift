import ScreenTable

/// Where the run is. Only this file writes it (`fileprivate(set)`): other parts move
/// through Navigation's functions.
public struct NavigationState: Equatable, Sendable {
    public fileprivate(set) var screenID: String?
    /// Screens Esc can go back to.
    public fileprivate(set) var history: [String] = []
    /// When the screen was shown, or its last call succeeded (ms): cooldowns count from it.
    public fileprivate(set) var since: Int64 = 0

    public init() {}

    init(showing screenID: String) {
        self.screenID = screenID
    }
}

/// Moving between screens: forward (keeping the Back history), arriving (entering the
/// screen, then each part's arrival), back, and an outcome's move.
extension FlowEngine {
    /// A screen already on the way back is gone back to: the history is cut before it, so
    /// Esc from there goes where it went the first time (a cancelled sign-in returns to the
    /// method choice without adding a second one to step through).
    func go(to id: String, _ state: inout FlowState, message: FlowState.Message? = nil, now: Int64, effects: inout [Effect]) {
        if let current = state.screenID, current != id, let screen = flow.screen(current), screen.resumable {
            state.navigation.history.append(current)
        }
        if let earlier = state.navigation.history.lastIndex(of: id) {
            state.navigation.history.removeSubrange(earlier...)
        }
        arrive(at: id, &state, message: message, now: now, effects: &effects)
    }

    /// Arrives at a screen (a route goes on to its target): enters it, then each part
    /// does what arriving there asks of it.
    func arrive(at id: String, _ state: inout FlowState, message: FlowState.Message? = nil, now: Int64, effects: inout [Effect]) {
        guard let screen = flow.screen(id) else { return }
        effects.append(.reached(.screen(id)))
        if screen.kind == .route {
            if let target = screen.route.first(where: { holds($0.when, state) })?.go {
                arrive(at: target, &state, message: message, now: now, effects: &effects)
            }
            return
        }
        // Before the progress is saved: a withdrawn code is not kept.
        withdrawPoll(leftFor: id, &state, now: now, effects: &effects)
        enter(screen, &state, message: message, now: now)
        startOnboardingIfFirst(at: screen, &state, now: now, effects: &effects)
        trackArrival(at: screen, &state, now: now, effects: &effects)
        completeOnboardingIfDone(at: screen, &state, now: now, effects: &effects)
        if screen.resumable {
            saveProgress(progress(at: id, state), &state, effects: &effects)
        }
        makeArrivalCalls(on: screen, &state, now: now, effects: &effects)
        if screen.kind == .checklist {
            startChecklist(screen, &state, now: now, effects: &effects)
        }
    }

    /// The screen is shown: its defaults filled in, its form fresh, the last screen's
    /// notes gone.
    private func enter(_ screen: Screen, _ state: inout FlowState, message: FlowState.Message?, now: Int64) {
        for field in screen.fields where state.context[field.id] == nil || state.context[field.id] == .text("") {
            if let initial = field.kind.behaviour.initialValue(of: field, today: today(now, state)) {
                state.context.answer(field.id, initial)
            }
        }
        state.navigation.since = now
        state.form.enter(screen)
        if state.screenID != nil, state.screenID != screen.id {
            state.warnings = []
            state.notes = []
        }
        state.navigation.screenID = screen.id
        state.message = message
        state.pressedWhileCooling = nil
        state.phase = .showing
    }

    /// A call succeeded here: the screen's cooldowns count from now.
    func restartCooldowns(_ state: inout FlowState, now: Int64) {
        state.navigation.since = now
    }

    /// Back goes nowhere from here on: the screens before belonged to someone else (a
    /// signed-out user, or before a sign-out).
    func forgetHistory(_ state: inout FlowState) {
        state.navigation.history = []
    }

    /// Back after a relaunch goes where it went before, through screens this flow still
    /// has, up to the one resumed at.
    func resumeHistory(_ kept: [String], upTo target: String, _ state: inout FlowState) {
        state.navigation.history = Array(kept.filter { flow.screen($0)?.resumable == true }.prefix { $0 != target })
    }

    /// Off every screen (signed out), until the next arrival.
    func leaveScreen(_ state: inout FlowState) {
        state.navigation.screenID = nil
        state.navigation.history = []
    }

    /// The nearest screen of the history this flow still has (after its file changed),
    /// taken off the history; else where a first launch begins.
    func nearestScreenStillThere(_ state: inout FlowState) -> String {
        while let last = state.navigation.history.last, flow.screen(last) == nil { state.navigation.history.removeLast() }
        return state.navigation.history.popLast() ?? flow.entry.firstLaunch
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
        markForcedByJump(&state)
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
        let needs = Set(
            blocked.filter { leadsThere.contains($0.to) && !reached.contains($0.to) }
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
        for call in screen.ownCalls { ways += call.outcomes.values.compactMap(\.go).map { ($0, []) } }
        return ways
    }

    /// Branches taken in order, the first whose guard holds: each holds only where every
    /// branch before it does not ("otherwise" after `is_anonymous` is `not is_anonymous`).
    private static func firstMatch(_ branches: [Branch], under guards: [Guard]) -> [(to: String, guards: [Guard])] {
        var earlier: [Guard] = []
        return branches.map { branch in
            defer {
                if let when = branch.when { earlier.append(Guard(when.name, negated: !when.negated, key: when.key, value: when.value)) }
            }
            return (branch.go, guards + earlier + (branch.when.map { [$0] } ?? []))
        }
    }

    func progress(at screen: String, _ state: FlowState) -> SavedProgress {
        SavedProgress(
            screen: screen, context: state.context.values.filter { !secretKeys.contains($0.key) },
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
        guard let previous = state.navigation.history.popLast() else { return }
        state.context.forget(screen.fields.filter { $0.kind == .password }.map(\.id))
        arrive(at: previous, &state, message: message, now: now, effects: &effects)
    }

    func follow(_ outcome: Outcome?, _ state: inout FlowState, now: Int64, effects: inout [Effect], isError: Bool = false) {
        // An outcome's message may quote the context (`{error_message}`: the service's words).
        let message = outcome?.message.map { Placeholders.fill($0, from: state.context.values) }.map {
            isError ? FlowState.Message.error($0) : .notice($0)
        }
        if outcome?.back == true, let screen = currentScreen(state), !state.history.isEmpty {
            goBack(from: screen, &state, message: message, now: now, effects: &effects)
        } else if let target = outcome?.go {
            go(to: target, &state, message: message, now: now, effects: &effects)
        } else if let message {
            state.message = message
            // Done and staying here (ABBY's "We sent a new code."): what comes next is
            // typed, so the form's first field takes the keys, not the button just pressed.
            if !isError, currentScreen(state)?.fields.isEmpty == false { state.form.focus(on: 0) }
        }
    }
}
