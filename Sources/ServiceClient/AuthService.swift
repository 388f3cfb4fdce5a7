@_exported import OnboardService

/// The one interface the runtime calls. Transports: in process (the embedded mock) and
/// HTTP (`onboard-server`). Every failure is a `ServiceError` with a stable code; one
/// contract test suite runs against both.
public protocol AuthService: Sendable {
    func health() async throws -> String
    func signInAnonymously(flow: String) async throws -> AnonymousSignIn
    func chooseName(accessToken: String, name: String) async throws -> Profile
    func profile(accessToken: String) async throws -> Profile
    func register(flow: String, name: String, email: String, password: String) async throws -> IssuedSession
    func login(flow: String, email: String, password: String) async throws -> IssuedSession
    func linkEmail(flow: String, accessToken: String, email: String, password: String) async throws -> IssuedSession
    func refresh(refreshToken: String) async throws -> IssuedSession
    func logout(refreshToken: String) async throws
    func motivation(accessToken: String) async throws -> String
}

/// The embedded mock: `OnboardService` called directly, over its own SQLite file.
public struct InProcessTransport: AuthService {
    public let service: OnboardService
    /// Anonymous token lifetimes per flow id, from each flow's table.
    public let policies: [String: TokenPolicy]

    public init(service: OnboardService, policies: [String: TokenPolicy] = [:]) {
        self.service = service
        self.policies = policies
    }

    public func health() async throws -> String { try await service.health() }

    public func signInAnonymously(flow: String) async throws -> AnonymousSignIn {
        try await service.signInAnonymously(policy: policies[flow] ?? .anonymous)
    }

    public func chooseName(accessToken: String, name: String) async throws -> Profile {
        try await service.chooseName(accessToken: accessToken, name: name)
    }

    public func profile(accessToken: String) async throws -> Profile {
        try await service.profile(accessToken: accessToken)
    }

    public func register(flow: String, name: String, email: String, password: String) async throws -> IssuedSession {
        try await service.register(name: name, email: email, password: password, policy: .named)
    }

    public func login(flow: String, email: String, password: String) async throws -> IssuedSession {
        try await service.login(email: email, password: password, policy: .named)
    }

    public func linkEmail(flow: String, accessToken: String, email: String, password: String) async throws -> IssuedSession {
        try await service.linkEmail(accessToken: accessToken, email: email, password: password, policy: .named)
    }

    public func refresh(refreshToken: String) async throws -> IssuedSession {
        try await service.refresh(refreshToken: refreshToken)
    }

    public func logout(refreshToken: String) async throws {
        try await service.logout(refreshToken: refreshToken)
    }

    public func motivation(accessToken: String) async throws -> String {
        try await service.motivation(accessToken: accessToken)
    }
}
