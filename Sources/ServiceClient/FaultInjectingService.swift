import Synchronization

/// Wraps any transport and makes calls fail the way QA asked, so every error state
/// in the specs can be reached on purpose, whichever service is in use.
public final class FaultInjectingService: AuthService {
    private let base: any AuthService
    private let faults: [Fault]
    private let failuresLeft: Mutex<Int>

    public init(wrapping base: any AuthService, faults: [Fault]) {
        self.base = base
        self.faults = faults
        let count = faults.reduce(0) { total, fault in
            if case .failFirst(let count) = fault { return total + count }
            return total
        }
        failuresLeft = Mutex(count)
    }

    public func health() async throws -> String {
        try await inject { try await base.health() }
    }

    public func signInAnonymously(flow: String) async throws -> AnonymousSignIn {
        try await inject { try await base.signInAnonymously(flow: flow) }
    }

    public func chooseName(accessToken: String, name: String) async throws -> Profile {
        try await inject { try await base.chooseName(accessToken: accessToken, name: name) }
    }

    public func profile(accessToken: String) async throws -> Profile {
        try await inject { try await base.profile(accessToken: accessToken) }
    }

    public func register(flow: String, name: String, email: String, password: String) async throws -> IssuedSession {
        try await inject { try await base.register(flow: flow, name: name, email: email, password: password) }
    }

    public func login(flow: String, email: String, password: String) async throws -> IssuedSession {
        try await inject { try await base.login(flow: flow, email: email, password: password) }
    }

    public func linkEmail(flow: String, accessToken: String, email: String, password: String) async throws -> IssuedSession {
        try await inject { try await base.linkEmail(flow: flow, accessToken: accessToken, email: email, password: password) }
    }

    public func refresh(refreshToken: String) async throws -> IssuedSession {
        try await inject(isRefresh: true) { try await base.refresh(refreshToken: refreshToken) }
    }

    public func logout(refreshToken: String) async throws {
        try await inject { try await base.logout(refreshToken: refreshToken) }
    }

    public func motivation(accessToken: String) async throws -> String {
        try await inject { try await base.motivation(accessToken: accessToken) }
    }

    /// Applies the faults in order, then makes the call if none failed it.
    private func inject<T>(isRefresh: Bool = false, _ call: () async throws -> T) async throws -> T {
        for fault in faults {
            if case .slow(let milliseconds) = fault {
                try? await Task.sleep(for: .milliseconds(milliseconds))
            }
        }
        for fault in faults {
            switch fault {
            case .network:
                throw ServiceError(.network, "The service cannot be reached (injected fault: network).")
            case .serverError:
                throw ServiceError(.serverError, "The service failed (injected fault: server-error).")
            case .rateLimit:
                throw ServiceError(.rateLimited, "Too many attempts. Please wait and try again (injected fault: rate-limit).", retryAfter: 30)
            case .reauthFail where isRefresh:
                throw ServiceError(.unauthorized, "The session was rejected (injected fault: reauth-fail).")
            case .failFirst:
                let fail = failuresLeft.withLock { left in
                    guard left > 0 else { return false }
                    left -= 1
                    return true
                }
                if fail { throw ServiceError(.network, "The service cannot be reached (injected fault: fail-first).") }
            case .slow, .reauthFail:
                break
            }
        }
        return try await call()
    }
}
