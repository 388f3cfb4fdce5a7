import ScreenTable

/// Analytics events: recorded only with consent where the flow asks for it, under the
/// placeholder id until a session names the user (or always, for a local id).
extension FlowEngine {
    func track(
        _ name: String, with properties: [String: AnalyticsRecord.Property] = [:], _ state: inout FlowState, now: Int64,
        effects: inout [Effect]
    ) {
        guard hasAnalyticsConsent(state) else { return }
        let user = flow.analytics.localID ? state.placeholderUserID : (state.session?.userID ?? state.placeholderUserID)
        var properties = properties
        if let key = flow.analytics.breakdown, let value = state.context[key]?.text, !value.isEmpty { properties[key] = .text(value) }
        let event = AnalyticsRecord(
            name: name, userID: user, anonymousID: state.placeholderUserID, screen: state.screenID, timestamp: now, properties: properties)
        record(analytics: .track(event), state, effects: &effects)
    }

    /// On the first screen event of a run (a launch, a relaunch): the time before it was
    /// not spent on the screen shown before it.
    public static let startsRunProperty = "starts_run"

    /// The arrival itself (what a funnel counts), the screen's own events, and its step
    /// number where the flow counts steps.
    func trackArrival(at screen: Screen, _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        if let name = flow.analytics.screens, let index = flow.screens.firstIndex(where: { $0.id == screen.id }) {
            var properties: [String: AnalyticsRecord.Property] = ["screen_index": .number(Int64(index))]
            if state.startsRun { properties[Self.startsRunProperty] = .number(1) }
            track(name, with: properties, &state, now: now, effects: &effects)
        }
        state.startsRun = false
        for name in screen.track { track(name, &state, now: now, effects: &effects) }
        if let name = flow.analytics.step, let step = screen.step {
            track(name, with: ["step": .number(Int64(step))], &state, now: now, effects: &effects)
        }
    }

    /// Events may be recorded: the flow asks for no consent, or it was granted.
    func hasAnalyticsConsent(_ state: FlowState) -> Bool {
        guard let consent = flow.analytics.consentKey else { return true }
        return state.context[consent]?.text == "granted"
    }
}
