import ScreenTable
import ServiceAPI

/// A screen's poll (RFC 8628's device sign-in): made on the clock's ticks while its
/// screen is shown, never two at once; `authorization_pending` (and a transient failure:
/// the network, a busy service) waits another interval and `slow_down` five seconds more
/// from then on, unless the screen's `on:` names them; any other answer stops it and
/// follows its outcome.
extension FlowEngine {
    func pollIfDue(_ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        // A clock set back would put the next poll that far off: never more than an
        // interval away.
        if var timer = state.calls.poll, let due = timer.dueAt, due - now > timer.interval * 1000 {
            timer.dueAt = now + timer.interval * 1000
            state.calls.poll = timer
        }
        guard var timer = state.calls.poll, let due = timer.dueAt, state.phase == .showing,
            timer.screen == state.screenID, let poll = currentScreen(state)?.poll
        else { return }
        if let until = poll.until.flatMap({ state.context[$0]?.text }).flatMap({ Int64($0) }), until <= now {
            let expired = ServiceFailure(code: ServiceError.Code.expiredToken.rawValue, message: "The code has expired.")
            finishPoll(poll.call, on: timer.screen, .failure(expired), &state, now: now, effects: &effects)
            return
        }
        guard due <= now else { return }
        timer.dueAt = nil
        state.calls.poll = timer
        issue(poll.call.operation, for: .poll(poll.call, screen: timer.screen), &state, now: now, effects: &effects)
    }

    /// The poll's screen left for another while the poll still waits (Cancel, Esc, an
    /// outcome's move): what it waits on is withdrawn (a device code no browser may
    /// approve any more) and its inputs forgotten.
    func withdrawPoll(leftFor next: String, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard let timer = state.calls.poll, timer.screen != next, let withdraw = flow.screen(timer.screen)?.poll?.withdraw else { return }
        state.calls.poll = nil
        guard withdraw.inputs.allSatisfy({ state.context[$0]?.text?.isEmpty == false }) else { return }
        issue(withdraw, for: .background, &state, now: now, effects: &effects)
        state.context.forget(withdraw.inputs)
    }

    func finishPoll(
        _ call: ServiceCall, on screen: String, _ result: Result<CallOutput, ServiceFailure>, _ state: inout FlowState, now: Int64,
        effects: inout [Effect]
    ) {
        guard state.screenID == screen, var timer = state.calls.poll, timer.screen == screen else { return }
        // Still waiting, or the service out of reach for a moment (ten minutes are long
        // on a train): ask again after an interval, unless the screen says otherwise.
        if case .failure(let failure) = result, call.outcomes[failure.code] == nil,
            failure.isTransient
                || [ServiceError.Code.authorizationPending.rawValue, ServiceError.Code.slowDown.rawValue].contains(failure.code)
        {
            if failure.code == ServiceError.Code.slowDown.rawValue { timer.interval += 5 }
            timer.dueAt = now + timer.interval * 1000
            state.calls.poll = timer
            return
        }
        state.calls.poll = nil
        switch result {
        case .success(let output):
            apply(output, &state, effects: &effects)
            reached("success", of: call, from: .arrival(screen: screen), effects: &effects)
            follow(call.outcome(for: "success"), &state, now: now, effects: &effects)
        case .failure(let failure):
            state.context.recordFailure(code: failure.code, message: failure.message)
            state.calls.pollEnded = screen
            reached(failure.code, of: call, from: .arrival(screen: screen), effects: &effects)
            follow(call.outcome(for: failure.code), &state, now: now, effects: &effects, isError: true)
        }
    }
}
