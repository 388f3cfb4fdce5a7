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

    /// Every call through `around`; `forged-id-token` then breaks the provider's token's
    /// signature (its first character changed: the last may only carry padding bits), so
    /// the service's own check refuses it.
    public func send<Call: WireCall>(_ call: Call, bearer: String?) async throws -> Call.Answer {
        let answer = try await around(Call.endpoint) { try await base.send(call, bearer: bearer) }
        guard faults.contains(.forgedIDToken), let token = (answer as? Wire.IdentityToken)?.idToken,
            let dot = token.lastIndex(of: "."), token.index(after: dot) < token.endIndex
        else { return answer }
        let first = token.index(after: dot)
        let forged = String(token[..<first]) + (token[first] == "A" ? "B" : "A") + String(token[token.index(after: first)...])
        return (Wire.IdentityToken(idToken: forged) as? Call.Answer) ?? answer
    }
}
