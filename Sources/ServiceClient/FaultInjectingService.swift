import ServiceAPI
import Synchronization

/// Wraps any transport and makes calls fail the way QA asked, so every error state
/// in the specs can be reached on purpose, whichever service is in use.
public final class FaultInjectingService: AuthServiceDecorator {
    public let base: any AuthService
    private let switchboard: FaultSwitchboard
    private let failuresLeft: Mutex<Int>
    private var faults: [Fault] { switchboard.faults }

    public convenience init(wrapping base: any AuthService, faults: [Fault]) {
        self.init(wrapping: base, switchboard: FaultSwitchboard(faults))
    }

    /// Faults read from `switchboard` on every call, so QA can switch them while running.
    public init(wrapping base: any AuthService, switchboard: FaultSwitchboard) {
        self.base = base
        self.switchboard = switchboard
        let count = switchboard.faults.reduce(0) { total, fault in
            if case .failFirst(let count) = fault { return total + count }
            return total
        }
        failuresLeft = Mutex(count)
    }

    /// Applies the faults in order, then makes the call if none failed it.
    public func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T {
        for case .slow(let milliseconds) in faults {
            try? await Task.sleep(for: .milliseconds(milliseconds))
        }
        for fault in faults {
            switch fault {
            case .network:
                throw ServiceError(.network, "The service cannot be reached (injected fault: network).")
            case .serverError:
                throw ServiceError(.serverError, "The service failed (injected fault: server-error).")
            case .rateLimit:
                throw ServiceError(.rateLimited, "Too many attempts. Please wait and try again (injected fault: rate-limit).", retryAfter: 30)
            case .timeout:
                throw ServiceError(.timeout, "The service did not answer in time (injected fault: timeout).")
            case .reauthFail where endpoint == .refresh:
                throw ServiceError(.unauthorized, "The session was rejected (injected fault: reauth-fail).")
            case .failFirst:
                let fail = failuresLeft.withLock { left in
                    guard left > 0 else { return false }
                    left -= 1
                    return true
                }
                if fail { throw ServiceError(.network, "The service cannot be reached (injected fault: fail-first).") }
            case .slow, .reauthFail, .forgedIDToken:
                break
            }
        }
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

/// The faults in force, shared by every faulty transport of a run; the QA console
/// switches them on and off.
public final class FaultSwitchboard: Sendable {
    private let current: Mutex<[Fault]>

    public init(_ faults: [Fault] = []) {
        current = Mutex(faults)
    }

    public var faults: [Fault] { current.withLock { $0 } }

    /// Adds the fault, or removes it if it is on; returns whether it is on now.
    @discardableResult
    public func toggle(_ fault: Fault) -> Bool {
        current.withLock { faults in
            if let index = faults.firstIndex(of: fault) {
                faults.remove(at: index)
                return false
            }
            faults.append(fault)
            return true
        }
    }
}
