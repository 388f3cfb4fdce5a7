import ScreenTable

/// Silent renewal: on launch, ahead of expiry, and again later after a network failure;
/// a guest the service will not renew keeps its identity and everything on this device.
/// (It changes who the run is only through `keep` and `signOut`, in SessionLifecycle.)
extension FlowEngine {
    /// Renews in the background before the session expires, so no call waits for it, or
    /// again once a renewal the network prevented is due.
    func renewIfDue(_ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard state.calls.renewalID == nil, state.phase == .showing, let session = state.session else { return }
        if var due = state.renewal.dueAt {
            // A clock set back (QA's Clock, a device's clock corrected) would put the
            // retry that far off: it is never more than the longest wait away.
            if due - now > Self.renewalRetryDelay {
                due = now + Self.renewalRetryDelay
                state.renewal.dueAt = due
            }
            guard due <= now else { return }
            state.renewal.dueAt = nil
            issue(.refreshSession, for: .renewal, &state, now: now, effects: &effects)
        } else if needsRenewal(session, now: now) {
            issue(.refreshSession, for: .renewal, &state, now: now, effects: &effects)
        }
    }

    /// The access token expires within the flow's `renew_before`, on the service's
    /// clock: renewed before use.
    func needsRenewal(_ session: Session, now: Int64) -> Bool {
        // A guest on this device has no token to renew (and `.max` minus a clock set
        // decades back would overflow).
        guard !session.isOnThisDeviceOnly else { return false }
        return session.accessExpiresAt - session.serviceSeconds(atMilliseconds: now) <= flow.tokens.renewBefore
    }

    /// A renewal whose new token already needs renewing (a lifetime shorter than
    /// `renew_before`, a clock that moved since) waits before the next, twice as long
    /// each time, so no clock makes the client hammer the service.
    func backOffIfStillDue(_ session: Session, _ state: inout FlowState, now: Int64) {
        guard needsRenewal(session, now: now) else {
            state.renewal.stillDue = 0
            return
        }
        state.renewal.stillDue += 1
        let delay = min(Self.renewalRetryDelay, 1000 << min(state.renewal.stillDue - 1, 16))
        state.renewal.dueAt = now + delay
    }

    /// Calls held for the session wait for one renewal, started here unless under way.
    func renewForHeldCalls(_ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard state.calls.renewalID == nil else { return }
        issue(.refreshSession, for: .renewal, &state, now: now, effects: &effects)
    }

    func finishRenewal(_ result: Result<CallOutput, ServiceFailure>, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        let onLaunch: Int? = if case .renewing(let attempt) = state.phase { attempt } else { nil }
        switch result {
        case .success(let output):
            if let session = output.session {
                keep(session, &state, effects: &effects)
                backOffIfStillDue(session, &state, now: now)
                if let renewed = flow.analytics.renewed { track(renewed, &state, now: now, effects: &effects) }
            }
            // Calls held for it go now, with the renewed session.
            for var request in state.calls.releaseHeld() {
                request.session = state.session
                effects.append(.call(request))
            }
            if onLaunch != nil { enterFlow(&state, resumeAt: savedProgress(&state), now: now, effects: &effects) }
        case .failure(let failure) where failure.isTransient:
            if let attempt = onLaunch, attempt < Self.renewalAttempts {
                state.phase = .renewing(attempt: attempt + 1)
                issue(.refreshSession, for: .renewal, &state, now: now, effects: &effects)
            } else {
                // Never throw a session away for a network error: keep it, try later.
                state.renewal.dueAt = now + Self.renewalRetryDelay
                // Calls held for it fail as it did: the user sees the network's error.
                for request in state.calls.releaseHeld() {
                    finish(callID: request.id, .failure(failure), &state, now: now, effects: &effects)
                }
                if onLaunch != nil { enterFlow(&state, resumeAt: savedProgress(&state), now: now, effects: &effects) }
            }
        case .failure:
            if state.session?.isAnonymous == true, flow.entry.keepsGuest {
                keepGuest(&state, onLaunch: onLaunch != nil, now: now, effects: &effects)
            } else {
                sessionEnded(&state, now: now, effects: &effects)
            }
        }
    }

    /// A guest the service would not renew keeps its id, its session and this device's
    /// data: a guest has no email to come back with, so a new one would orphan it. The
    /// renewal is tried again later. Calls held for it go with the session as it is, so
    /// the runner does what it does for a refused session (a ruck is kept on this
    /// device, for this guest); they are not renewed for again while the retry waits.
    private func keepGuest(_ state: inout FlowState, onLaunch: Bool, now: Int64, effects: inout [Effect]) {
        state.renewal.dueAt = now + Self.renewalRetryDelay
        state.notes = [
            "Your guest session could not be renewed just now. Everything on this device is kept, and \(flow.title) will try again."
        ]
        for var request in state.calls.releaseHeld() {
            request.session = state.session
            effects.append(.call(request))
        }
        if onLaunch { enterFlow(&state, resumeAt: savedProgress(&state), now: now, effects: &effects) }
    }

    /// A first launch whose guest the network kept from being made (a flow with
    /// `offline_guest`) starts as a guest on this device: the install's placeholder id and
    /// the call's own idempotency key, under which the runner registers it once the
    /// service answers. nil: the failure stands.
    func guestOnThisDevice(
        after result: Result<CallOutput, ServiceFailure>, of entry: CallTable.Entry, _ state: FlowState, now: Int64
    ) -> Session? {
        guard flow.entry.offlineGuest != nil, entry.operation == .signInAnonymously, state.session == nil,
            case .failure(let failure) = result, failure.isUnreachable, let key = entry.request?.idempotencyKey
        else { return nil }
        return .onThisDevice(userID: state.placeholderUserID, registrationKey: key, now: now)
    }
}
