import ScreenTable
import ServiceAPI

/// Calls and their results: the call the user waits for (made from an action or on
/// arrival), what its success or failure does, Try Again, and the silent retry after a
/// suspend. Every call is in `state.calls` with its purpose; a result is one lookup.
extension FlowEngine {
    func start(_ call: ServiceCall, from origin: FlowState.Origin, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        state.calls.silentRetryUsed = false
        issue(call.operation, for: .user(call, from: origin), &state, now: now, effects: &effects)
    }

    /// Records a call in the table and sends it, or holds it while the session is renewed
    /// when its access token is about to expire. Returns its id.
    @discardableResult
    func issue(_ operation: Operation, for purpose: CallTable.Purpose, _ state: inout FlowState, now: Int64, effects: inout [Effect]) -> Int
    {
        let id = state.calls.add(operation, for: purpose)
        var inputs: [String: String] = [:]
        for key in operation.inputs { inputs[key] = state.context[key]?.text }
        let service = flow.serviceURLKey.flatMap { state.context[$0]?.text }
        var fields: [String: Value] = [:]
        if operation == .saveProfile || operation == .finishProfile, let screen = currentScreen(state) {
            for field in screen.fields { fields[field.id] = state.context[field.id] }
        }
        for key in operation.listInputs { fields[key] = state.context[key] }
        var request = CallRequest(id: id, operation: operation, session: state.session, inputs: inputs, service: service, fields: fields)
        request.idempotencyKey = idempotencyKey(for: request, &state, effects: &effects)
        state.calls.record(request)
        if operation.usesSession, let session = state.session, needsRenewal(session, now: now), state.renewal.dueAt == nil,
            let entry = state.calls.entries[id]
        {
            state.calls.hold(id, entry)
            renewForHeldCalls(&state, now: now, effects: &effects)
        } else {
            effects.append(.call(request))
        }
        return id
    }

    func finish(callID: Int, _ result: Result<CallOutput, ServiceFailure>, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        // Not in the table: it answers a call already settled by its silent retry.
        guard var entry = state.calls.remove(callID) else { return }
        if case .failure(let failure) = result, let session = failure.session {
            apply(CallOutput(session: session), &state, effects: &effects)
        }
        if case .failure(let failure) = result, let kept = failure.kept {
            apply(CallOutput(values: kept.values), &state, effects: &effects)
            state.notes = [kept.note]
        }
        if case .failure(let failure) = result, failure.code == ServiceError.Code.unauthorized.rawValue, mayRenew(for: entry, state) {
            // The service turned the token down (a server restarted, a clock moved):
            // renewed once, the call goes again.
            entry.renewedFor = true
            state.calls.hold(callID, entry)
            renewForHeldCalls(&state, now: now, effects: &effects)
            return
        }
        if entry.keyed, Self.endsTheIntent(result) {
            // Done, or the key is bound to another request (the list it wrote changed on
            // another device): the next call of this kind is a new intent with a new key.
            state.context.holdKey(Self.idempotencyKeyName(entry.operation), nil)
        }
        switch entry.purpose {
        case .renewal:
            finishRenewal(result, &state, now: now, effects: &effects)
        case .task(let index, let attempt):
            finishTask(TaskCall(id: callID, index: index, attempt: attempt), result, &state, now: now, effects: &effects)
        case .background:
            // Background results fill the context (and a session the service corrected,
            // such as a link whose answer was lost); a failure leaves the fallback text.
            guard case .success(let output) = result, entry.operation != .refreshSession else { return }
            apply(output, &state, effects: &effects)
            // What a background call found (the hub's first day) survives a relaunch.
            if let screen = currentScreen(state), screen.resumable {
                saveProgress(progress(at: screen.id, state), &state, effects: &effects)
            }
        case .user(let call, let origin):
            state.calls.dropReplaced(by: callID)
            if let guest = guestOnThisDevice(after: result, of: entry, state, now: now) {
                // The key now travels with the guest, to register it; this intent is done.
                state.context.holdKey(Self.idempotencyKeyName(entry.operation), nil)
                finishUserCall(
                    call, from: origin, .success(CallOutput(session: guest, values: ["user_id": .text(guest.userID)])), &state, now: now,
                    effects: &effects)
                state.notes = flow.entry.offlineGuest.map { [$0] } ?? []
                return
            }
            finishUserCall(call, from: origin, result, &state, now: now, effects: &effects)
        case .replaced(let retryID):
            // Its failure does not count: the silent retry is still under way. Its
            // success does, and the retry's answer is then dropped.
            guard case .success = result, let retry = state.calls.remove(retryID),
                case .user(let call, let origin) = retry.purpose
            else { return }
            finishUserCall(call, from: origin, result, &state, now: now, effects: &effects)
        case .poll(let call, let screen):
            finishPoll(call, on: screen, result, &state, now: now, effects: &effects)
        case .abandoned:
            break
        }
    }

    /// Whether a refusal of this call's token is worth one renewal: a call that used the
    /// session, not renewed for already, while no failed renewal waits.
    private func mayRenew(for entry: CallTable.Entry, _ state: FlowState) -> Bool {
        guard entry.operation.usesSession, !entry.renewedFor, state.renewal.dueAt == nil, state.session != nil else { return false }
        switch entry.purpose {
        case .user, .background, .task, .poll: return true
        case .replaced, .renewal, .abandoned: return false
        }
    }

    /// The branch a result takes: its own code's, else the catch-all `error`'s.
    func reached(_ code: String, of call: ServiceCall, from origin: FlowState.Origin, effects: inout [Effect]) {
        guard let branch = call.outcomes[code] != nil ? code : (code != "success" && call.outcomes["error"] != nil ? "error" : nil) else {
            return
        }
        effects.append(.reached(.result(screen: origin.screen, operation: call.operation.rawValue, code: branch)))
    }

    /// The result of the call the user waited for.
    private func finishUserCall(
        _ call: ServiceCall, from origin: FlowState.Origin, _ result: Result<CallOutput, ServiceFailure>, _ state: inout FlowState,
        now: Int64, effects: inout [Effect]
    ) {
        switch result {
        case .success(let output) where output.signedOut:
            reached("success", of: call, from: origin, effects: &effects)
            effects.append(.forgetLocalData)
            signOut(&state, keepingDeviceAnswers: false, now: now, effects: &effects)
        case .success(let output):
            // The last failure is over: its code and message are not progress to keep.
            state.context.forgetFailure()
            apply(output, &state, effects: &effects)
            forgetSecrets(typedOn: origin, &state)
            restartCooldowns(&state, now: now)
            state.calls.lastSucceeded[call.operation] = now
            reached("success", of: call, from: origin, effects: &effects)
            follow(call.outcome(for: "success"), &state, now: now, effects: &effects)
        case .failure(let failure):
            fail(call, from: origin, failure, &state, now: now, effects: &effects)
        }
    }

    private func fail(
        _ call: ServiceCall, from origin: FlowState.Origin, _ failure: ServiceFailure, _ state: inout FlowState, now: Int64,
        effects: inout [Effect]
    ) {
        state.context.recordFailure(code: failure.code, message: failure.message)
        state.calls.lastFailure = origin
        if case .step(let screenID, _) = origin {
            // A wrong or expired code empties the boxes for the next try.
            for field in flow.screen(screenID)?.fields ?? [] where field.kind == .code {
                state.context.answer(field.id, .text(""))
                state.form.place(cursor: nil, in: field.id)
            }
        }
        if let screen = currentScreen(state), screen.resumable {
            // What was typed is kept on this device even when the service cannot take it.
            saveProgress(progress(at: screen.id, state), &state, effects: &effects)
        }
        if let name = flow.analytics.error {
            let code = flow.analytics.errorCodes[failure.code] ?? failure.code
            track(name, with: ["error_code": .text(code)], &state, now: now, effects: &effects)
        }
        reached(failure.code, of: call, from: origin, effects: &effects)
        let outcome = call.outcome(for: failure.code)
        if let outcome, let id = outcome.field, outcome.go == nil,
            let index = currentScreen(state)?.fields.firstIndex(where: { $0.id == id })
        {
            // About one field: said under it, and focus goes there for the next try.
            state.form.say(outcome.message ?? failure.message, under: id)
            state.form.focus(on: index)
        } else if let outcome {
            if outcome.go == nil, outcome.message == nil {
                state.message = .error(failure.message)
            } else {
                follow(outcome, &state, now: now, effects: &effects, isError: true)
            }
        } else {
            state.message = .error(failure.message)
        }
        if case .arrival = origin, flow.screen(state.screenID ?? "")?.kind == .progress {
            // A progress screen with nowhere to go would spin forever: show the failure there.
            state.message = .error(failure.message)
        }
    }

    /// After a suspend, the call the user waits for is sent again once: the connection
    /// may not have survived. Whichever answers first counts.
    func retrySilently(_ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard let user = state.calls.userCall, !state.calls.silentRetryUsed else { return }
        state.calls.silentRetryUsed = true
        let retryID = issue(user.call.operation, for: .user(user.call, from: user.origin), &state, now: now, effects: &effects)
        state.calls.replace(user.id, by: retryID)
    }

    func retry(_ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard let origin = state.calls.lastFailure else { return }
        state.calls.retries += 1
        if let name = flow.analytics.retry {
            track(name, with: ["attempt_number": .number(Int64(state.calls.retries))], &state, now: now, effects: &effects)
        }
        switch origin {
        case .arrival(let screen):
            arrive(at: screen, &state, now: now, effects: &effects)
        case .step(let screen, let call):
            if state.screenID != screen { arrive(at: screen, &state, now: now, effects: &effects) }
            start(call, from: origin, &state, now: now, effects: &effects)
        }
    }

    /// Passwords and codes are dropped once the call they were typed for succeeded, so
    /// they neither linger in memory nor pre-fill the next form that uses the same key.
    private func forgetSecrets(typedOn origin: FlowState.Origin, _ state: inout FlowState) {
        let screenID: String =
            switch origin {
            case .arrival(let screen), .step(let screen, _): screen
            }
        let fields = flow.screen(screenID)?.fields ?? []
        state.context.forget(fields.map(\.id).filter(secretKeys.contains))
    }
}

extension FlowEngine {
    /// A screen's own call (a progress screen's), what it loads in the background, and its
    /// poll's first turn, an interval from now (any other screen's poll stops).
    func makeArrivalCalls(on screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        state.calls.pollEnded = nil
        state.calls.poll = screen.poll.map { poll in
            let interval = poll.every.flatMap { state.context[$0]?.text }.flatMap { Int64($0) }.map { max(1, $0) } ?? 5
            return CallTable.PollTimer(screen: screen.id, dueAt: now + interval * 1000, interval: interval)
        }
        if let call = screen.call {
            start(call, from: .arrival(screen: screen.id), &state, now: now, effects: &effects)
        }
        for operation in screen.load {
            issue(operation, for: .background, &state, now: now, effects: &effects)
        }
    }
}
