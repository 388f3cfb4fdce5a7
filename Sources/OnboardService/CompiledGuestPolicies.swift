// Generated from BuiltinFlows/*.yaml (each flow's `tokens`); do not edit. After changing one, run
//   ONBOARD_REGENERATE=1 swift test --filter CompiledFlowsTests

import ServiceAPI

extension OnboardService {
    /// Each built-in flow's guest token lifetimes, by flow id.
    static let builtinGuestPolicies: [String: TokenPolicy] = [
        "oklah": TokenPolicy(accessLifetime: 86400, refreshLifetime: nil),
        "babybasics": TokenPolicy(accessLifetime: 86400, refreshLifetime: 2592000),
        "abby": TokenPolicy(accessLifetime: 86400, refreshLifetime: 2592000),
        "rucktracker": TokenPolicy(accessLifetime: 86400, refreshLifetime: nil),
        "miga": TokenPolicy(accessLifetime: 86400, refreshLifetime: nil),
    ]
}
