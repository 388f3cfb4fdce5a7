import ScreenTable

/// Analytics events: recorded only with consent where the flow asks for it, under the
/// placeholder id until a session names the user (or always, for a local id).
extension FlowEngine {
    func track(_ name: String, with properties: [String: AnalyticsRecord.Property] = [:], _ state: inout FlowState, now: Int64, effects: inout [Effect]) {
        if let consent = flow.analytics.consentKey, state.context[consent]?.text != "granted" { return }
        let user = flow.analytics.localID ? state.placeholderUserID : (state.session?.userID ?? state.placeholderUserID)
        effects.append(.track(AnalyticsRecord(name: name, userID: user, timestamp: now, properties: properties)))
    }
}
