import ScreenTable

/// Checklist screens: tasks run one after another on arrival, each line showing its
/// outcome; a task that fails for want of a network is retried, then falls back if the
/// flow says how (MIGA's local-only mode), else the checklist stops for Try Again.
extension FlowEngine {
    func startChecklist(_ screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        state.checklist.tasks = screen.tasks.map { _ in .waiting }
        state.checklist.startedAt = now
        startTask(0, of: screen, &state, now: now, effects: &effects)
    }

    private func startTask(_ index: Int, of screen: Screen, attempt: Int = 1, _ state: inout FlowState, now: Int64, effects: inout [Effect])
    {
        // A retry says which try it is (issue 32: a recovery on the third try was unseen).
        state.checklist.tasks[index] = .running(attempt > 1 ? "try \(attempt) of \(screen.tasks[index].retries + 1)" : nil)
        issue(screen.tasks[index].operation, for: .task(index: index, attempt: attempt), &state, now: now, effects: &effects)
    }

    /// A task's result.
    func finishTask(
        _ call: TaskCall, _ result: Result<CallOutput, ServiceFailure>, _ state: inout FlowState, now: Int64, effects: inout [Effect]
    ) {
        guard let screen = currentScreen(state), screen.kind == .checklist else { return }
        let task = screen.tasks[call.index]
        switch result {
        case .success(var output):
            // An operation that found its own way around a failure says so.
            let note = output.values.removeValue(forKey: "note")?.text ?? "done"
            let fellBack = output.values.removeValue(forKey: "fell_back") == .text("true")
            apply(output, &state, effects: &effects)
            state.checklist.tasks[call.index] = fellBack ? .fellBack(note) : .done(note)
        case .failure(let failure) where failure.isTransient && call.attempt <= task.retries:
            startTask(call.index, of: screen, attempt: call.attempt + 1, &state, now: now, effects: &effects)
            return
        case .failure(let failure):
            if let fallback = task.fallback {
                state.checklist.tasks[call.index] = .fellBack(fallback)
            } else {
                state.checklist.tasks[call.index] = .failed(failure.message)
                state.message = .error(failure.message + " Press Enter to try again.")
                return
            }
        }
        if call.index + 1 < screen.tasks.count {
            startTask(call.index + 1, of: screen, &state, now: now, effects: &effects)
        } else {
            finishChecklist(screen, &state, now: now, effects: &effects)
        }
    }

    private func finishChecklist(_ screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        let fallbacks = state.checklist.tasks.filter { if case .fellBack = $0 { true } else { false } }.count
        state.context.record(["setup_mode": .text(fallbacks > 0 ? "local-only" : "online")])
        // Local-only mode is setup that worked another way, not a failure: a notice.
        if let note = fallbacks > 0 ? screen.fallbackNote : screen.finishedNote {
            state.message = .notice(note)
        }
        if let report = screen.report {
            let duration = max(0, now - (state.checklist.startedAt ?? now))
            track(
                report, with: ["duration_ms": .number(duration), "fallbacks": .number(Int64(fallbacks))], &state, now: now,
                effects: &effects)
        }
        state.form.focus(on: 0)
    }

    /// Enter on a stopped checklist: the failed task again, then the rest.
    func retryChecklist(_ screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) -> Bool {
        guard screen.kind == .checklist,
            let failed = state.checklist.tasks.firstIndex(where: { if case .failed = $0 { true } else { false } })
        else { return false }
        state.message = nil
        startTask(failed, of: screen, &state, now: now, effects: &effects)
        return true
    }

    /// Whether every task has an outcome (the buttons show then).
    func checklistDone(_ state: FlowState) -> Bool {
        state.calls.task == nil
            && !state.checklist.tasks.contains { status in
                switch status {
                case .waiting, .running, .failed: true
                case .done, .fellBack: false
                }
            }
    }
}
