import ServiceAPI

/// Wraps any transport and makes calls fail the way QA asked, so every error state
/// in the specs can be reached on purpose, whichever service is in use.
public final class FaultInjectingService: AuthServiceDecorator {
    public let base: any AuthService
    private let switchboard: FaultSwitchboard

    public convenience init(wrapping base: any AuthService, faults: [Fault]) {
        self.init(wrapping: base, switchboard: FaultSwitchboard(faults))
    }

    /// Faults read from `switchboard` on every call, so QA can switch them while running.
    public init(wrapping base: any AuthService, switchboard: FaultSwitchboard) {
        self.base = base
        self.switchboard = switchboard
    }

    private var faults: [Fault] { switchboard.faults }

    /// Applies the faults in order, then makes the call if none failed it.
    public func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T {
        if let failure = await switchboard.failure(for: endpoint) { throw failure }
        return try await call()
    }

    /// `forged-id-token`: the provider's token with the first character of its signature
    /// changed (the last may only carry padding bits), so the service's own check
    /// refuses it.
    public func mockIdentityToken(provider: String, account: String, audience: String, nonce: String) async throws -> String {
        let token = try await around(.mockIdentityToken) {
            try await base.mockIdentityToken(provider: provider, account: account, audience: audience, nonce: nonce)
        }
        guard faults.contains(.forgedIDToken), let dot = token.lastIndex(of: "."), token.index(after: dot) < token.endIndex else { return token }
        let first = token.index(after: dot)
        return String(token[..<first]) + (token[first] == "A" ? "B" : "A") + String(token[token.index(after: first)...])
    }
}
