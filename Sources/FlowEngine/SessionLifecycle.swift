import ScreenTable

/// Whose run it is. Only this file writes it (`fileprivate(set)`).
public struct AccountState: Equatable, Sendable {
    public fileprivate(set) var session: Session?
    /// The one record that onboarding is done; a session saved carries it with it.
    public fileprivate(set) var onboardingComplete = false
    /// QA jumped to a screen: until the next launch nothing of this run is recorded as the
    /// person's (no progress, no analytics, no completion), so a jump never leaves a state
    /// the flow could not reach (OKLah "complete" for a device id with no account).
    public fileprivate(set) var forcedByJump = false
    /// When onboarding started (ms), for the completion event's `duration_ms`.
    public fileprivate(set) var startedAt: Int64?
    public fileprivate(set) var placeholderUserID = ""
    /// Seconds east of UTC, for "today".
    public fileprivate(set) var utcOffset: Int64 = 0

    public init() {}

    init(session: Session?) {
        self.session = session
    }
}

/// The session's life: launch and the entry decision, silent renewal (on launch, ahead
/// of expiry, again later after a network failure), what a call's session changes, and
/// signing out.
extension FlowEngine {
    func launchFlow(_ state: inout FlowState, _ launch: Launch, now: Int64, effects: inout [Effect]) {
        let (storageProblems, calls) = (state.storageProblems, state.calls.afterRelaunch())
        state = FlowState()
        state.storageProblems = storageProblems
        state.calls = calls
        state.account.session = launch.session
        state.warnings = launch.warnings
        state.account.placeholderUserID = launch.progress?.placeholderUserID ?? launch.placeholderUserID
        state.account.utcOffset = launch.utcOffset
        if let progress = launch.progress {
            state.context.restore(progress.context)
            state.account.onboardingComplete = progress.onboardingComplete
            state.account.startedAt = progress.startedAt
        }
        state.context.fillDefaults(launch.defaults)
        if launch.session?.onboardingComplete == true { state.account.onboardingComplete = true }
        // Expired on this window's clock (its refresh token too, after 30 days unused): the
        // service is asked, and its answer ends the session or renews it. A clock is not
        // the service's say: one set wrong, or a window whose clock another window's skew
        // was measured against, would end for everyone a session the service still keeps.
        if let session = launch.session, session.accessExpired(atMilliseconds: now) {
            state.phase = .renewing(attempt: 1)
            state.renewal.heldProgress = launch.progress
            issue(.refreshSession, for: .renewal, &state, now: now, effects: &effects)
            return
        }
        enterFlow(&state, resumeAt: launch.progress, now: now, effects: &effects)
    }

    /// Saved progress first, then a usable session goes to the signed-in screen, else
    /// the first-launch screen.
    func enterFlow(_ state: inout FlowState, resumeAt progress: SavedProgress?, now: Int64, effects: inout [Effect]) {
        state.phase = .showing
        if flow.entry.resume, let progress, let screen = flow.screen(progress.screen), screen.resumable,
            !state.onboardingComplete || screen.resumesAfterComplete,
            state.session != nil || !progress.requiresSession
        {
            let target = screen.resumeAt ?? screen.id
            resumeHistory(progress.history, upTo: target, &state)
            arrive(at: target, &state, now: now, effects: &effects)
            return
        }
        if state.session != nil || (!flow.entry.sessionRequired && state.onboardingComplete), let signedIn = flow.entry.signedIn {
            arrive(at: signedIn, &state, now: now, effects: &effects)
            return
        }
        if state.session == nil, !state.onboardingComplete || flow.entry.sessionRequired {
            // A first launch starts clean, but keeps what the flow's service address needs,
            // and the key of a call that may already have made something.
            state.context.keepOnly {
                $0 == flow.serviceURLKey || $0 == flow.analytics.consentKey || $0.hasPrefix(Self.idempotencyKeyPrefix)
            }
        }
        arrive(at: flow.entry.firstLaunch, &state, now: now, effects: &effects)
    }

    /// The session is over (refused, or its refresh token ran out). A named account is
    /// asked to log in again where the flow says, what it signed in with filled in;
    /// otherwise this is a quiet sign-out to where a signed-out user starts.
    func sessionEnded(_ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard state.session?.isAnonymous == false, let ended = flow.entry.sessionEnded.flatMap(flow.screen) else {
            signOut(&state, now: now, effects: &effects)
            return
        }
        signOut(&state, landingAt: ended, now: now, effects: &effects)
    }

    /// Drops the session and progress and lands where a signed-out user starts, keeping
    /// the answers that belong to the device (consent, the server address) unless the
    /// user logged out, which forgets everything.
    func signOut(
        _ state: inout FlowState, keepingDeviceAnswers: Bool = true, landingAt ended: Screen? = nil, now: Int64, effects: inout [Effect]
    ) {
        // A sign-out under way keeps its key: its guest may already be made (see
        // `idempotencyKey(for:)`).
        var kept =
            keepingDeviceAnswers
            ? Set([flow.serviceURLKey, flow.analytics.consentKey, Self.idempotencyKeyName(.signOut)].compactMap { $0 }) : []
        // Asked to log in again: the same person, so what they signed in with and what
        // they had typed into any form (a ruck, a baby; never a password or code) stays,
        // for after they are back. What the account's service said (Pro, its rucks) goes.
        if ended != nil {
            kept.formUnion(draftKeys)
        }
        state.account.session = nil
        state.context.keepOnly(where: kept.contains)
        state.account.onboardingComplete = false
        state.account.startedAt = nil
        state.calls.abandonForeground()
        state.renewal.dueAt = nil
        state.renewal.heldProgress = nil
        saveSession(nil, effects: &effects)
        saveProgress(nil, &state, effects: &effects)
        leaveScreen(&state)
        state.phase = .showing
        if let ended {
            // What the person was told of their work (a ruck kept for this account) is
            // still true where they log in again.
            let told = state.notes
            arrive(at: ended.id, &state, now: now, effects: &effects)
            state.notes = told
        } else if keepingDeviceAnswers, let signedOut = flow.entry.signedOut {
            arrive(at: signedOut, &state, now: now, effects: &effects)
        } else {
            enterFlow(&state, resumeAt: nil, now: now, effects: &effects)
        }
    }

    /// Every key a person types into on some form of the flow, secrets aside: a draft.
    var draftKeys: Set<String> {
        Set(flow.screens.flatMap(\.fields).map(\.id)).subtracting(secretKeys)
    }

    /// What the person has typed on the form shown, secrets aside: carried over when the
    /// window starts again from its folder (another window changed who it holds), so
    /// nothing typed and not yet sent is lost.
    public func drafts(on state: FlowState) -> [String: Value] {
        guard let screen = currentScreen(state), screen.kind == .form else { return [:] }
        var drafts: [String: Value] = [:]
        for field in screen.fields where draftKeys.contains(field.id) {
            if let value = state.context[field.id], value != .text(""), value != .list([]) { drafts[field.id] = value }
        }
        return drafts
    }

    /// The progress the launch brought: renewal happens before the entry decision.
    func savedProgress(_ state: inout FlowState) -> SavedProgress? {
        defer { state.renewal.heldProgress = nil }
        return state.renewal.heldProgress
    }

    func apply(_ output: CallOutput, _ state: inout FlowState, effects: inout [Effect]) {
        state.context.record(output.values)
        guard let session = output.session else { return }
        // A guest made on this device counts as none: its events take the service's id.
        let firstSession = state.session?.isOnThisDeviceOnly ?? true
        if state.session?.userID != session.userID {
            // Signed in (or in as someone else): the screens before belonged to a signed-out
            // user, so Back never leads to a sign-up form while signed in.
            forgetHistory(&state)
        }
        keep(session, &state, effects: &effects)
        state.renewal.dueAt = nil
        if firstSession, !flow.analytics.localID {
            record(analytics: .backfillAnalytics(placeholder: state.placeholderUserID, userID: session.userID), state, effects: &effects)
        }
    }
}

/// Onboarding's start and end, as arriving at screens marks them.
extension FlowEngine {
    /// The first-launch screen of a run not yet complete: onboarding starts (the clock
    /// for `duration_ms`, once) and the flow's start event.
    func startOnboardingIfFirst(at screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard screen.id == flow.entry.firstLaunch, !state.onboardingComplete else { return }
        if state.startedAt == nil { state.account.startedAt = now }
        if let start = flow.analytics.start { track(start, &state, now: now, effects: &effects) }
    }

    /// A screen that completes onboarding: recorded once (not on a QA jump), in the
    /// session too, with the completion event and its duration.
    func completeOnboardingIfDone(at screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard screen.completesOnboarding, !state.onboardingComplete, !state.forcedByJump else { return }
        state.account.onboardingComplete = true
        state.calls.forgetFailures()
        if let session = state.session { keep(session, &state, effects: &effects) }
        if let complete = flow.analytics.complete {
            let duration = state.startedAt.map { max(0, now - $0) } ?? 0
            track(complete, with: ["duration_ms": .number(duration)], &state, now: now, effects: &effects)
        }
    }

    /// The session is this run's and is saved, carrying the run's one record of
    /// onboarding done (`account.onboardingComplete`), so a lost progress file does not
    /// undo it.
    func keep(_ session: Session, _ state: inout FlowState, effects: inout [Effect]) {
        var session = session
        session.onboardingComplete = state.onboardingComplete
        state.account.session = session
        saveSession(session, effects: &effects)
    }

    /// QA jumped: nothing of this run counts as the person's until the next launch.
    func markForcedByJump(_ state: inout FlowState) {
        state.account.forcedByJump = true
    }
}
