import ScreenTable

/// Analytics events: recorded only with consent where the flow asks for it, under the
/// placeholder id until a session names the user (or always, for a local id).
extension FlowEngine {
    func track(_ name: String, with properties: [String: AnalyticsRecord.Property] = [:], _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        guard hasAnalyticsConsent(state) else { return }
        let user = flow.analytics.localID ? state.placeholderUserID : (state.session?.userID ?? state.placeholderUserID)
        effects.append(.track(AnalyticsRecord(name: name, userID: user, timestamp: now, properties: properties)))
    }

    /// Events may be recorded: the flow asks for no consent, or it was granted.
    func hasAnalyticsConsent(_ state: FlowState) -> Bool {
        guard let consent = flow.analytics.consentKey else { return true }
        return state.context[consent]?.text == "granted"
    }
}
