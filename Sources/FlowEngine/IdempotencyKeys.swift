import ScreenTable
import ServiceAPI

/// One idempotency key per intent: the first call of a kind that creates or spends
/// something mints a key and keeps it in the context (saved with the progress, so it
/// survives a kill); Try Again, the silent retry after Ctrl-Z, a checklist's retries and
/// a press after a relaunch send the same key, and the service answers them with the
/// first result instead of a second account. Success forgets the key: the next call of
/// that kind is a new intent.
extension FlowEngine {
    static let idempotencyKeyPrefix = "idempotency_key."

    static func idempotencyKeyName(_ operation: Operation) -> String {
        idempotencyKeyPrefix + operation.rawValue
    }

    /// A result after which the key is spent: success, or the service saying the key was
    /// already used for a different request.
    static func endsTheIntent(_ result: Result<CallOutput, ServiceFailure>) -> Bool {
        switch result {
        case .success: true
        case .failure(let failure): failure.code == ServiceError.Code.idempotencyKeyReused.rawValue
        }
    }

    func idempotencyKey(for request: CallRequest, _ state: inout FlowState, effects: inout [Effect]) -> String? {
        guard request.operation.createsOrSpends else { return nil }
        let name = Self.idempotencyKeyName(request.operation)
        // A new guest is one intent whether Sign Out or "Continue as Guest" makes it: a
        // sign-out cut off after its guest was made is finished by the next guest sign-in
        // under the same key, which the service answers with that guest, never a second.
        let signOutKey = Self.idempotencyKeyName(.signOut)
        if request.operation == .signInAnonymously, state.context[name] == nil, let pending = state.context[signOutKey] {
            state.context.holdKey(name, pending)
            state.context.holdKey(signOutKey, nil)
        }
        let base: String
        if let kept = state.context[name]?.text {
            base = kept
        } else {
            // Unique without randomness: this install's placeholder id, when the screen
            // was shown (ms), and the call's number in this run.
            base = "\(state.placeholderUserID)-\(state.screenSince)-\(request.id)"
            state.context.holdKey(name, .text(base))
            // Saved before the call leaves, where a relaunch would resume (a spinner is
            // not a resume point: the screen before it is). A first launch's own call
            // (RuckTracker's guest, made on the spinner it opens with) is kept at the
            // first screen, so a kill before its answer never makes a second account.
            let current = currentScreen(state).flatMap { $0.resumable ? $0.id : nil }
            let firstLaunch = state.session == nil ? flow.entry.firstLaunch : nil
            if let resumeAt = current ?? state.history.last ?? firstLaunch {
                saveProgress(progress(at: resumeAt, state), &state, effects: &effects)
            }
        }
        state.calls.markKeyed(request.id)
        // Other inputs are another intent: a changed email after a lost reply must not
        // be answered with the account made for the first one. Secrets stay out of it.
        let inputs = request.inputs.filter { !secretKeys.contains($0.key) }.sorted { $0.key < $1.key }
        return base + "-" + Self.fingerprint(inputs.map { "\($0.key)=\($0.value)" }.joined(separator: "\u{1F}"))
    }

    /// FNV-1a, 64 bits, as hex: tells inputs apart, no secret goes into it.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}
