import CivilCalendar
import ScreenTable

/// The pure reducer every flow runs on: (state, event, now) -> (state, effects).
/// It performs no I/O; the runtime carries out the effects and feeds results back.
public struct FlowEngine: Sendable {
    public let flow: Flow
    /// Silent renewal attempts on launch before giving up for now.
    public static let renewalAttempts = 3
    /// How long to wait before trying again a renewal the network prevented (ms).
    public static let renewalRetryDelay: Int64 = 60_000

    let secretKeys: Set<String>

    public init(flow: Flow) {
        self.flow = flow
        secretKeys = flow.typedSecretKeys
    }

    public func currentScreen(_ state: FlowState) -> Screen? {
        state.screenID.flatMap(flow.screen)
    }

    /// Applies one event at time `now` (ms since 1970) and returns the effects to run.
    public func reduce(_ state: inout FlowState, _ event: FlowEvent, now: Int64) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .launched(let launch):
            launchFlow(&state, launch, now: now, effects: &effects)
        case .intent(let intent):
            handle(intent, &state, now: now, effects: &effects)
        case .callFinished(let id, let result):
            finish(callID: id, result, &state, now: now, effects: &effects)
        case .closing:
            if state.phase == .showing, let screen = currentScreen(state) { saveDraft(screen, &state, effects: &effects) }
        case .resumed:
            if var pending = state.pending, !state.silentRetryUsed {
                state.silentRetryUsed = true
                pending.replacedID = pending.id
                pending.id = issue(pending.call.operation, &state, effects: &effects)
                state.pending = pending
            }
        case .jump(let id):
            guard flow.screen(id) != nil else { break }
            state.pending = nil
            state.taskCall = nil
            state.phase = .showing
            go(to: id, &state, now: now, effects: &effects)
        case .tick:
            guard state.renewalCallID == nil, state.phase == .showing, let session = state.session else { break }
            if let due = state.renewalDueAt {
                if due <= now {
                    state.renewalDueAt = nil
                    state.renewalCallID = issue(.refreshSession, &state, effects: &effects)
                }
            } else if now / 1000 >= session.accessExpiresAt - flow.tokens.renewBefore {
                // Renewed in the background before it expires, so no call waits for it.
                state.renewalCallID = issue(.refreshSession, &state, effects: &effects)
            }
        }
        return effects
    }

    // MARK: Launch and the entry decision

    private func launchFlow(_ state: inout FlowState, _ launch: Launch, now: Int64, effects: inout [Effect]) {
        state = FlowState()
        state.session = launch.session
        state.warnings = launch.warnings
        state.placeholderUserID = launch.progress?.placeholderUserID ?? launch.placeholderUserID
        state.utcOffset = launch.utcOffset
        if let progress = launch.progress {
            state.context = progress.context
            state.onboardingComplete = progress.onboardingComplete
            state.startedAt = progress.startedAt
        }
        for (key, value) in launch.defaults where state.context[key] == nil {
            state.context[key] = value
        }
        if launch.session?.onboardingComplete == true { state.onboardingComplete = true }
        if let session = launch.session, let refreshEnd = session.refreshExpiresAt, refreshEnd <= now / 1000 {
            // Unused for longer than the refresh token lives: logged out, as the service would.
            signOut(&state, now: now, effects: &effects)
            return
        }
        if let session = launch.session, session.accessExpired(atMilliseconds: now) {
            state.phase = .renewing(attempt: 1)
            state.progressAfterRenewal = launch.progress
            state.renewalCallID = issue(.refreshSession, &state, effects: &effects)
            return
        }
        enterFlow(&state, resumeAt: launch.progress, now: now, effects: &effects)
    }

    /// Saved progress first, then a usable session goes to the signed-in screen, else
    /// the first-launch screen.
    private func enterFlow(_ state: inout FlowState, resumeAt progress: SavedProgress?, now: Int64, effects: inout [Effect]) {
        state.phase = .showing
        if flow.entry.resume, let progress, let screen = flow.screen(progress.screen), screen.resumable,
           !state.onboardingComplete || screen.resumesAfterComplete,
           state.session != nil || !progress.requiresSession {
            arrive(at: screen.resumeAt ?? screen.id, &state, now: now, effects: &effects)
            return
        }
        if state.session != nil || (!flow.entry.sessionRequired && state.onboardingComplete), let signedIn = flow.entry.signedIn {
            arrive(at: signedIn, &state, now: now, effects: &effects)
            return
        }
        if state.session == nil, !state.onboardingComplete || flow.entry.sessionRequired {
            // A first launch starts clean, but keeps what the flow's service address needs.
            state.context = state.context.filter { $0.key == flow.serviceURLKey || $0.key == flow.analytics.consentKey }
        }
        arrive(at: flow.entry.firstLaunch, &state, now: now, effects: &effects)
    }

    // MARK: Arriving at a screen

    func go(to id: String, _ state: inout FlowState, message: FlowState.Message? = nil, now: Int64, effects: inout [Effect]) {
        if let current = state.screenID, current != id, let screen = flow.screen(current), screen.resumable {
            state.history.append(current)
        }
        arrive(at: id, &state, message: message, now: now, effects: &effects)
    }

    private func arrive(at id: String, _ state: inout FlowState, message: FlowState.Message? = nil, now: Int64, effects: inout [Effect]) {
        guard let screen = flow.screen(id) else { return }
        if screen.kind == .route {
            if let target = screen.route.first(where: { holds($0.when, state) })?.go {
                arrive(at: target, &state, message: message, now: now, effects: &effects)
            }
            return
        }
        for field in screen.fields where state.context[field.id] == nil || state.context[field.id] == .text("") {
            if let initial = initialValue(of: field, now: now, state) { state.context[field.id] = initial }
        }
        state.screenSince = now
        state.typingNumber = nil
        for field in screen.fields where field.kind.editsAsText { state.cursor[field.id] = nil }
        if state.screenID != nil, state.screenID != id { state.warnings = [] }
        state.screenID = id
        state.fieldErrors = [:]
        state.message = message
        state.pressedWhileCooling = nil
        state.focus = 0
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
            state.failedOrigin = nil
            state.retryCount = 0
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
            start(call, from: .arrival(screen: id), &state, effects: &effects)
        }
        if screen.kind == .checklist {
            startChecklist(screen, &state, now: now, effects: &effects)
        }
        for operation in screen.load {
            let callID = issue(operation, &state, effects: &effects)
            state.backgroundCalls[callID] = operation
        }
    }

    func progress(at screen: String, _ state: FlowState) -> SavedProgress {
        SavedProgress(
            screen: screen, context: state.context.filter { !secretKeys.contains($0.key) },
            onboardingComplete: state.onboardingComplete, startedAt: state.startedAt,
            placeholderUserID: state.placeholderUserID, requiresSession: state.session != nil
        )
    }

    // MARK: Calls

    private func start(_ call: ServiceCall, from origin: FlowState.Origin, _ state: inout FlowState, effects: inout [Effect]) {
        state.silentRetryUsed = false
        let id = issue(call.operation, &state, effects: &effects)
        state.pending = FlowState.PendingCall(id: id, replacedID: nil, call: call, origin: origin)
    }

    /// Emits a call effect and returns its id.
    func issue(_ operation: Operation, _ state: inout FlowState, effects: inout [Effect]) -> Int {
        let id = state.nextCallID
        state.nextCallID += 1
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
        request.mayRenewSession = state.renewalDueAt == nil
        effects.append(.call(request))
        return id
    }

    private func finish(callID: Int, _ result: Result<CallOutput, ServiceFailure>, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        if let operation = state.keyedCalls.removeValue(forKey: callID), case .success = result {
            // Done: the next call of this kind is a new intent with a new key.
            state.context[Self.idempotencyKeyName(operation)] = nil
        }
        if callID == state.renewalCallID {
            finishRenewal(result, &state, now: now, effects: &effects)
        } else if finishTask(callID: callID, result, &state, now: now, effects: &effects) {
            return
        } else if let operation = state.backgroundCalls.removeValue(forKey: callID) {
            // Background results only fill the context; a failure leaves the fallback text.
            if case .success(let output) = result, operation != .refreshSession {
                state.context.merge(output.values) { _, new in new }
                // What a background call found (the hub's first day) survives a relaunch.
                if let screen = currentScreen(state), screen.resumable {
                    effects.append(.saveProgress(progress(at: screen.id, state)))
                }
            }
        } else if let pending = state.pending, pending.replacedID == callID, case .failure = result {
            // The replaced call failed; the silent retry is still under way.
            state.pending?.replacedID = nil
        } else if let pending = state.pending, pending.id == callID || pending.replacedID == callID {
            state.pending = nil
            switch result {
            case .success(let output) where output.signedOut:
                effects.append(.forgetLocalData)
                signOut(&state, keepingDeviceAnswers: false, now: now, effects: &effects)
            case .success(let output):
                // The last failure is over: its code and message are not progress to keep.
                state.context["error_code"] = nil
                state.context["error_message"] = nil
                apply(output, &state, effects: &effects)
                forgetSecrets(typedOn: pending.origin, &state)
                state.screenSince = now
                let outcome = pending.call.outcome(for: "success")
                follow(outcome, &state, now: now, effects: &effects)
            case .failure(let failure):
                fail(pending, failure, &state, now: now, effects: &effects)
            }
        }
        // Anything else answers a call that was superseded (a silent retry); drop it.
    }

    private func finishRenewal(_ result: Result<CallOutput, ServiceFailure>, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        state.renewalCallID = nil
        let onLaunch: Int? = if case .renewing(let attempt) = state.phase { attempt } else { nil }
        switch result {
        case .success(let output):
            if var session = output.session {
                session.onboardingComplete = session.onboardingComplete || state.onboardingComplete
                state.session = session
                effects.append(.saveSession(session))
                if let renewed = flow.analytics.renewed { track(renewed, &state, now: now, effects: &effects) }
            }
            if onLaunch != nil { enterFlow(&state, resumeAt: savedProgress(&state), now: now, effects: &effects) }
        case .failure(let failure) where failure.isTransient:
            if let attempt = onLaunch, attempt < Self.renewalAttempts {
                state.phase = .renewing(attempt: attempt + 1)
                state.renewalCallID = issue(.refreshSession, &state, effects: &effects)
            } else {
                // Never throw a session away for a network error: keep it, try later.
                state.renewalDueAt = now + Self.renewalRetryDelay
                if onLaunch != nil { enterFlow(&state, resumeAt: savedProgress(&state), now: now, effects: &effects) }
            }
        case .failure:
            // The service rejected the session: start over quietly, with no error shown.
            signOut(&state, now: now, effects: &effects)
        }
    }

    /// Drops the session and progress and lands where a signed-out user starts, keeping
    /// the answers that belong to the device (consent, the server address) unless the
    /// user logged out, which forgets everything.
    private func signOut(_ state: inout FlowState, keepingDeviceAnswers: Bool = true, now: Int64, effects: inout [Effect]) {
        let kept = keepingDeviceAnswers ? Set([flow.serviceURLKey, flow.analytics.consentKey].compactMap { $0 }) : []
        state.session = nil
        state.context = state.context.filter { kept.contains($0.key) }
        state.onboardingComplete = false
        state.startedAt = nil
        state.pending = nil
        state.history = []
        state.renewalDueAt = nil
        state.progressAfterRenewal = nil
        effects.append(.saveSession(nil))
        effects.append(.saveProgress(nil))
        state.screenID = nil
        state.phase = .showing
        if keepingDeviceAnswers, let signedOut = flow.entry.signedOut {
            arrive(at: signedOut, &state, now: now, effects: &effects)
        } else {
            enterFlow(&state, resumeAt: nil, now: now, effects: &effects)
        }
    }

    /// The progress the launch brought: renewal happens before the entry decision.
    private func savedProgress(_ state: inout FlowState) -> SavedProgress? {
        defer { state.progressAfterRenewal = nil }
        return state.progressAfterRenewal
    }

    func apply(_ output: CallOutput, _ state: inout FlowState, effects: inout [Effect]) {
        state.context.merge(output.values) { _, new in new }
        guard var session = output.session else { return }
        let firstSession = state.session == nil
        if state.session?.userID != session.userID {
            // Signed in (or in as someone else): the screens before belonged to a signed-out
            // user, so Back never leads to a sign-up form while signed in.
            state.history = []
        }
        session.onboardingComplete = state.onboardingComplete
        state.session = session
        state.renewalDueAt = nil
        effects.append(.saveSession(session))
        if firstSession, !flow.analytics.localID {
            effects.append(.backfillAnalytics(placeholder: state.placeholderUserID, userID: session.userID))
        }
    }

    /// Back to the previous screen, by Esc, a Back button or an outcome. A form left this
    /// way is abandoned: its passwords go, so none pre-fills another form that uses the
    /// same key (RuckTracker's Log In after Add Email). Forward moves keep them (Baby
    /// Basics' Log In Instead carries what was typed).
    private func goBack(from screen: Screen, _ state: inout FlowState, message: FlowState.Message? = nil, now: Int64, effects: inout [Effect]) {
        guard let previous = state.history.popLast() else { return }
        for field in screen.fields where field.kind == .password { state.context[field.id] = nil }
        arrive(at: previous, &state, message: message, now: now, effects: &effects)
    }

    /// Passwords and codes are dropped once the call they were typed for succeeded, so
    /// they neither linger in memory nor pre-fill the next form that uses the same key.
    private func forgetSecrets(typedOn origin: FlowState.Origin, _ state: inout FlowState) {
        let screenID: String = switch origin {
        case .arrival(let screen), .step(let screen, _): screen
        }
        for field in flow.screen(screenID)?.fields ?? [] where secretKeys.contains(field.id) {
            state.context[field.id] = nil
        }
    }

    private func fail(_ pending: FlowState.PendingCall, _ failure: ServiceFailure, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        state.context["error_code"] = .text(failure.code)
        state.context["error_message"] = .text(failure.message)
        state.failedOrigin = pending.origin
        if case .step(let screenID, _) = pending.origin {
            // A wrong or expired code empties the boxes for the next try.
            for field in flow.screen(screenID)?.fields ?? [] where field.kind == .code {
                state.context[field.id] = .text("")
                state.cursor[field.id] = nil
            }
        }
        if let screen = currentScreen(state), screen.resumable {
            // What was typed is kept on this device even when the service cannot take it.
            effects.append(.saveProgress(progress(at: screen.id, state)))
        }
        if let name = flow.analytics.error {
            let code = flow.analytics.errorCodes[failure.code] ?? failure.code
            track(name, with: ["error_code": .text(code)], &state, now: now, effects: &effects)
        }
        let outcome = pending.call.outcome(for: failure.code)
        if let outcome, let id = outcome.field, outcome.go == nil,
           let index = currentScreen(state)?.fields.firstIndex(where: { $0.id == id }) {
            // About one field: said under it, and focus goes there for the next try.
            state.fieldErrors[id] = outcome.message ?? failure.message
            state.focus = index
        } else if let outcome {
            if outcome.go == nil, outcome.message == nil {
                state.message = .error(failure.message)
            } else {
                follow(outcome, &state, now: now, effects: &effects, isError: true)
            }
        } else {
            state.message = .error(failure.message)
        }
        if case .arrival = pending.origin, flow.screen(state.screenID ?? "")?.kind == .progress {
            // A progress screen with nowhere to go would spin forever: show the failure there.
            state.message = .error(failure.message)
        }
    }

    private func follow(_ outcome: Outcome?, _ state: inout FlowState, now: Int64, effects: inout [Effect], isError: Bool = false) {
        let message = outcome?.message.map { isError ? FlowState.Message.error($0) : .notice($0) }
        if outcome?.back == true, let screen = currentScreen(state), !state.history.isEmpty {
            goBack(from: screen, &state, message: message, now: now, effects: &effects)
        } else if let target = outcome?.go {
            go(to: target, &state, message: message, now: now, effects: &effects)
        } else if let message {
            state.message = message
        }
    }

    // MARK: Keys

    private func handle(_ intent: Intent, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        if intent == .quit {
            if state.phase == .showing, let screen = currentScreen(state) { saveDraft(screen, &state, effects: &effects) }
            state.phase = .finished
            effects.append(.quit)
            return
        }
        guard !state.isBusy, let screen = currentScreen(state) else { return }
        if intent == .activate, retryChecklist(screen, &state, effects: &effects) { return }
        let items = focusables(of: screen, state)
        let focused = items.indices.contains(state.focus) ? items[state.focus] : nil
        let focusedField: Field? = if case .field(let index) = focused { screen.fields[index] } else { nil }
        switch intent {
        case .focusNext, .focusPrevious:
            guard !items.isEmpty else { return }
            state.focus = (state.focus + (intent == .focusNext ? 1 : items.count - 1)) % items.count
            state.typingNumber = nil
            saveDraft(screen, &state, effects: &effects)
        case .left, .right, .pageUp, .pageDown, .home, .end:
            if let field = focusedField, field.kind.editsAsText {
                // A text field's own meaning wins: the cursor moves within the text.
                moveCursor(in: field, intent, &state)
                return
            }
            if let field = focusedField, adjust(field, intent, &state, now: now) {
                revalidate(field, on: screen, &state, now: now)
                return
            }
            guard intent == .left || intent == .right else { return }
            // Along a row of buttons.
            if case .action = focused {
                let next = state.focus + (intent == .right ? 1 : -1)
                if items.indices.contains(next), case .action = items[next] { state.focus = next }
            }
        case .activate:
            switch focused {
            case .field(let index) where index == screen.fields.count - 1 && screen.fields[index].kind.editsAsText:
                // Enter in a form's last (or only) text field submits it, as huh and web
                // forms do: the first button that can be pressed.
                saveDraft(screen, &state, effects: &effects)
                if let submit = screen.actions.first(where: { holds($0.when, state) }) {
                    press(submit, on: screen, &state, now: now, effects: &effects)
                }
            case .field:
                state.focus = min(state.focus + 1, items.count - 1)
                state.typingNumber = nil
                saveDraft(screen, &state, effects: &effects)
            case .option(let index):
                pick(option: index, on: screen, &state, now: now, effects: &effects)
            case .action(let index):
                press(screen.actions[index], on: screen, &state, now: now, effects: &effects)
            case nil:
                break
            }
        case .back:
            if screen.allowsBack { goBack(from: screen, &state, now: now, effects: &effects) }
        case .insert(let text), .paste(let text):
            guard case .field(let index) = focused else {
                if intent == .insert(text), let character = text.first, text.count == 1 {
                    handle(.shortcut(character), &state, now: now, effects: &effects)
                }
                return
            }
            let field = screen.fields[index]
            var typing = typeIntoWidget(field, text, &state)
            if typing == .notAWidget { typing = type(text, into: field, &state) ? .cut : .typed }
            // Text cut to the field's limit keeps its note instead of a format check.
            if typing == .typed { revalidate(field, on: screen, &state, now: now) }
            submitIfFull(field, on: screen, &state, now: now, effects: &effects)
        case .deleteBackward:
            guard case .field(let index) = focused else { return }
            if deleteInWidget(screen.fields[index], &state) {
                revalidate(screen.fields[index], on: screen, &state, now: now)
                return
            }
            edit(screen.fields[index], &state) { editor in editor.deleteBackward() }
            revalidate(screen.fields[index], on: screen, &state, now: now)
        case .edit(let command):
            guard let field = focusedField, field.kind.editsAsText else { return }
            let yanking = state.killed
            var killed: String?
            edit(field, &state) { editor in killed = editor.apply(command, yanking: yanking) }
            // A password never outlives its field, not even in the kill buffer.
            if let killed, field.kind != .password { state.killed = killed }
            if command == .yank { limit(field, &state) }
            revalidate(field, on: screen, &state, now: now)
        case .toggleReveal:
            if case .field(let index) = focused, screen.fields[index].kind == .password {
                let id = screen.fields[index].id
                if state.revealed.contains(id) { state.revealed.remove(id) } else { state.revealed.insert(id) }
            }
        case .shortcut(let character):
            if let action = screen.actions.first(where: { $0.key == character && holds($0.when, state) }) {
                press(action, on: screen, &state, now: now, effects: &effects)
            }
        case .focus(let index):
            guard items.indices.contains(index), index != state.focus else { return }
            state.focus = index
            state.typingNumber = nil
            saveDraft(screen, &state, effects: &effects)
        case .setValue(let value):
            guard let field = focusedField else { return }
            state.fieldErrors[field.id] = nil
            switch field.kind {
            case .text, .email, .password, .phone, .code, .url:
                state.context[field.id] = .text("")
                state.cursor[field.id] = nil
                handle(.paste(value.text ?? ""), &state, now: now, effects: &effects)
            case .date, .select, .multi, .slider, .range:
                state.context[field.id] = value
                revalidate(field, on: screen, &state, now: now)
            }
        case .quit:
            break
        }
    }

    /// Adds typed or pasted text at the cursor, without control characters; returns
    /// whether it had to be cut to the field's limit.
    @discardableResult
    private func type(_ text: String, into field: Field, _ state: inout FlowState) -> Bool {
        let printable = String(text.filter { character in
            !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        })
        return insert(printable, into: field, unit: "characters", &state)
    }

    func today(_ now: Int64, _ state: FlowState) -> CivilDate {
        CivilDate(milliseconds: now, utcOffset: state.utcOffset)
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
        for (key, value) in action.sets { state.context[key] = value.isEmpty ? nil : .text(value) }
        run(action.step, on: screen, validating: action.validates, &state, now: now, effects: &effects)
    }

    /// Whole seconds until a cooling button can be pressed; nil when it can.
    public func cooldownLeft(_ action: Action, _ state: FlowState, now: Int64) -> Int? {
        guard let cooldown = action.cooldown else { return nil }
        let readyAt = state.screenSince + cooldown * 1000
        guard now < readyAt else { return nil }
        return Int((readyAt - now + 999) / 1000)
    }

    /// A code field with every box filled presses the screen's first button.
    private func submitIfFull(_ field: Field, on screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard field.submitsWhenFull, (state.context[field.id]?.text ?? "").count == field.maxLength,
              let action = screen.actions.first(where: { holds($0.when, state) }) else { return }
        press(action, on: screen, &state, now: now, effects: &effects)
    }

    /// Saves what is on the screen so far, so a kill loses at most the field being typed.
    private func saveDraft(_ screen: Screen, _ state: inout FlowState, effects: inout [Effect]) {
        guard screen.kind == .form, screen.resumable else { return }
        effects.append(.saveProgress(progress(at: screen.id, state)))
    }

    /// As you type: a field whose format can be judged (email, a match, a number, a
    /// range) is checked once it has a value, and so is any field that must match it.
    private func revalidate(_ field: Field, on screen: Screen, _ state: inout FlowState, now: Int64) {
        var values: [String: String] = [:]
        for each in screen.fields { values[each.id] = state.context[each.id]?.text ?? "" }
        var judged: Set<Rule.Name> = [.email, .matches, .positiveNumber, .letters, .alphanumeric, .minValue, .maxValue, .ordered]
        // A password's length is judged as it is typed too, like its match (RuckTracker).
        if field.kind == .password { judged.insert(.minLength) }
        let dependents = screen.fields.filter { other in other.rules.contains { $0.name == .matches && $0.field == field.id } }
        for candidate in [field] + dependents where !(values[candidate.id] ?? "").isEmpty {
            let live = Field(id: candidate.id, kind: candidate.kind, label: candidate.label, rules: candidate.rules.filter { judged.contains($0.name) })
            state.fieldErrors[candidate.id] = Validation.firstFailure(of: live, values: values, today: today(now, state))
        }
    }

    private func pick(option index: Int, on screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard let choice = screen.choice else { return }
        let options = self.options(of: choice, state)
        guard options.indices.contains(index) else { return }
        state.context[choice.store] = .text(options[index])
        run(choice.then, on: screen, &state, now: now, effects: &effects)
    }

    /// `validating: false` (a button that leads away) skips the form's rules.
    private func run(_ step: Step, on screen: Screen, validating: Bool = true, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        state.message = nil
        let valid = { (state: inout FlowState) in !validating || validate(screen, &state, now: now) }
        switch step {
        case .go(let target):
            guard valid(&state) else { return }
            go(to: target, &state, now: now, effects: &effects)
        case .back:
            goBack(from: screen, &state, now: now, effects: &effects)
        case .call(let call):
            guard valid(&state) else { return }
            start(call, from: .step(screen: screen.id, call: call), &state, effects: &effects)
        case .retry:
            retry(&state, now: now, effects: &effects)
        case .notice(let text):
            state.message = .notice(text)
        case .quit:
            state.phase = .finished
            effects.append(.quit)
        case .branch(let branches):
            guard valid(&state), let target = branches.first(where: { holds($0.when, state) })?.go else { return }
            go(to: target, &state, now: now, effects: &effects)
        }
    }

    /// Whether a guard holds; no guard always does.
    public func holds(_ guardian: Guard?, _ state: FlowState) -> Bool {
        guard let guardian else { return true }
        let value: Bool
        switch guardian.name {
        case .isAnonymous: value = state.session?.isAnonymous ?? false
        case .isSignedIn: value = state.session.map { !$0.isAnonymous } ?? false
        case .hasPro: value = state.context["pro"]?.text == "true"
        case .hasChildren: value = !(state.context["children"]?.list ?? []).isEmpty
        case .profileComplete: value = state.context["profile_complete"]?.text == "true"
        case .equals: value = state.context[guardian.key ?? ""]?.text == guardian.value
        }
        return value != guardian.negated
    }

    private func retry(_ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard let origin = state.failedOrigin else { return }
        state.retryCount += 1
        if let name = flow.analytics.retry {
            track(name, with: ["attempt_number": .number(Int64(state.retryCount))], &state, now: now, effects: &effects)
        }
        switch origin {
        case .arrival(let screen):
            arrive(at: screen, &state, now: now, effects: &effects)
        case .step(let screen, let call):
            if state.screenID != screen { arrive(at: screen, &state, now: now, effects: &effects) }
            start(call, from: origin, &state, effects: &effects)
        }
    }

    /// Runs every field's rules; the first failure of each field is shown under it.
    private func validate(_ screen: Screen, _ state: inout FlowState, now: Int64) -> Bool {
        guard screen.kind == .form else { return true }
        state.fieldErrors = [:]
        for field in screen.fields {
            if let message = Validation.firstFailure(of: field, in: state.context, today: today(now, state)) {
                state.fieldErrors[field.id] = message
            }
        }
        if let firstBad = screen.fields.firstIndex(where: { state.fieldErrors[$0.id] != nil }) {
            state.focus = firstBad
            return false
        }
        return true
    }

    func track(_ name: String, with properties: [String: AnalyticsRecord.Property] = [:], _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        if let consent = flow.analytics.consentKey, state.context[consent]?.text != "granted" { return }
        let user = flow.analytics.localID ? state.placeholderUserID : (state.session?.userID ?? state.placeholderUserID)
        effects.append(.track(AnalyticsRecord(name: name, userID: user, timestamp: now, properties: properties)))
    }

    // MARK: Reading a screen

    /// The field that has focus on the current screen, if a field has it.
    public func focusedField(_ state: FlowState) -> Field? {
        guard let screen = currentScreen(state) else { return nil }
        let items = focusables(of: screen, state)
        guard items.indices.contains(state.focus), case .field(let index) = items[state.focus] else { return nil }
        return screen.fields[index]
    }

    /// Fields, then options, then actions: the Tab order.
    public func focusables(of screen: Screen, _ state: FlowState) -> [Focusable] {
        var items = screen.fields.indices.map(Focusable.field)
        if let choice = screen.choice {
            items += options(of: choice, state).indices.map(Focusable.option)
        }
        if screen.kind == .checklist, !checklistDone(state) { return items }
        items += screen.actions.indices.filter { holds(screen.actions[$0].when, state) }.map(Focusable.action)
        return items
    }

    public func options(of choice: Choice, _ state: FlowState) -> [String] {
        switch choice.options {
        case .fixed(let options): options
        case .context(let key): state.context[key]?.list ?? []
        }
    }
}
