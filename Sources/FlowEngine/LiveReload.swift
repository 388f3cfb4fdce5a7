import ScreenTable

extension FlowEngine {
    /// After the flow's file changed under a run (`onboard run --flow FILE --watch`), with
    /// this engine made from the new flow: the run stays on its screen, with its context
    /// and what is typed, if the screen is still there; else it goes to the nearest
    /// earlier screen of its history that is, or to where a first launch begins. Returns
    /// the screen that was left, if any.
    public func settle(_ state: inout FlowState, now: Int64) -> (effects: [Effect], left: String?) {
        guard let current = state.screenID, state.phase != .idle else { return ([], nil) }
        if let screen = flow.screen(current) {
            // Fields or buttons may have gone: keep the focus on something there.
            let count = focusables(of: screen, state).count
            state.form.focus(on: min(state.form.focus, max(0, count - 1)))
            return ([], nil)
        }
        var effects: [Effect] = []
        let target = nearestScreenStillThere(&state)
        jump(to: target, &state, now: now, effects: &effects)
        return (effects, current)
    }
}
