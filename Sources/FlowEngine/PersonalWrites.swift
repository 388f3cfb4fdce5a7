import ScreenTable

/// The effects that write what is the person's own: their progress, their session and
/// their analytics. Every part emits them through here, so the rules they share are said
/// once and each leaves the reducer as it should run:
///
/// - A run QA forced with a jump writes no progress and no analytics: it is not the
///   person's.
/// - A progress write holds everything before it, so one right after another replaces
///   it (an arrival's, then the key of the call it makes), and the draft it takes along
///   no longer waits for typing to pause.
/// - The session is written once per event, last: a sign-in that also completes
///   onboarding would otherwise write its fsynced file twice.
extension FlowEngine {
    /// Saves the progress (`nil`: forgets it).
    func saveProgress(_ progress: SavedProgress?, _ state: inout FlowState, effects: inout [Effect]) {
        state.form.draftSaved()
        guard !state.forcedByJump else { return }
        if case .saveProgress = effects.last { effects.removeLast() }
        effects.append(.saveProgress(progress))
    }

    /// Saves the session (`nil`: forgets it); an earlier write in this event says less.
    /// (A forced run still keeps who is signed in: QA signs in to reach screens.)
    func saveSession(_ session: Session?, effects: inout [Effect]) {
        effects.removeAll { if case .saveSession = $0 { true } else { false } }
        effects.append(.saveSession(session))
    }

    /// An analytics event, or the move of the placeholder's events to the signed-in user.
    func record(analytics effect: Effect, _ state: FlowState, effects: inout [Effect]) {
        guard !state.forcedByJump else { return }
        effects.append(effect)
    }
}
