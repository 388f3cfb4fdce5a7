import ServiceAPI

extension TokenSettings {
    /// The tokens a guest of this flow gets. Named accounts get `TokenPolicy.named` on
    /// every flow (logged out after 30 days unused).
    public var guestPolicy: TokenPolicy {
        TokenPolicy(accessLifetime: accessLifetime, refreshLifetime: refreshLifetime)
    }
}

extension BuiltinFlows {
    /// Each built-in flow's guest lifetimes, by id, from its `tokens` block: the embedded
    /// mock and onboard-server both read them here, so a guest gets the same tokens from
    /// either. A flow neither knows gets `TokenPolicy.anonymous`.
    public static let guestPolicies: [String: TokenPolicy] = {
        var policies: [String: TokenPolicy] = [:]
        for id in ids {
            // A built-in flow that does not load fails its own tests; here it falls back.
            if let flow = try? load(id) { policies[id] = flow.tokens.guestPolicy }
        }
        return policies
    }()
}
