@_exported import OnboardService

/// The one interface the runtime calls. Transports: in process (the embedded mock) and,
/// later, HTTP. Every failure is a `ServiceError` with a stable code.
public protocol AuthService: Sendable {
    func health() async throws -> String
    func signInAnonymously(flow: String) async throws -> AnonymousSignIn
    func chooseName(accessToken: String, name: String) async throws -> Profile
    func refresh(refreshToken: String) async throws -> IssuedSession
    func motivation(accessToken: String) async throws -> String
}

/// The embedded mock: `OnboardService` called directly, over its own SQLite file.
public struct InProcessTransport: AuthService {
    public let service: OnboardService
    /// Token lifetimes per flow id, from each flow's table.
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

    public func refresh(refreshToken: String) async throws -> IssuedSession {
        try await service.refresh(refreshToken: refreshToken)
    }

    public func motivation(accessToken: String) async throws -> String {
        try await service.motivation(accessToken: accessToken)
    }
}
