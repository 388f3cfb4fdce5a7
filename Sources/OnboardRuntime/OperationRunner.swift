import FlowEngine
import ScreenTable
import ServiceClient

/// Carries out the engine's call effects against a service, turning every answer —
/// including a thrown error of any kind or no answer at all — into a result the
/// engine branches on.
public struct OperationRunner: Sendable {
    public let service: any AuthService
    public let flowID: String
    /// A call that has not answered by then fails as `timeout`.
    public let timeout: Duration

    public init(service: any AuthService, flowID: String, timeout: Duration = .seconds(15)) {
        self.service = service
        self.flowID = flowID
        self.timeout = timeout
    }

    public func run(_ request: CallRequest) async -> Result<CallOutput, ServiceFailure> {
        if request.operation.needsSession, request.session == nil {
            return .failure(ServiceFailure(code: "unauthorized", message: "You are not signed in."))
        }
        do {
            let output = try await withTimeout { try await perform(request) }
            return .success(output)
        } catch let error as ServiceError {
            return .failure(ServiceFailure(code: error.code.rawValue, message: error.message, retryAfter: error.retryAfter))
        } catch {
            return .failure(ServiceFailure(code: "server_error", message: "The service failed: \(error)"))
        }
    }

    private func perform(_ request: CallRequest) async throws -> CallOutput {
        switch request.operation {
        case .health:
            return CallOutput(values: ["service_status": .text(try await service.health())])
        case .signInAnonymously:
            let signIn = try await service.signInAnonymously(flow: flowID)
            return CallOutput(
                session: Session(signIn.session),
                values: ["user_id": .text(signIn.session.userID), "name_options": .list(signIn.nameOptions)])
        case .chooseName:
            let name = request.inputs["chosen_name"] ?? ""
            let profile = try await service.chooseName(accessToken: request.session!.accessToken, name: name)
            return CallOutput(values: ["display_name": .text(profile.displayName ?? name)])
        case .refreshSession:
            let issued = try await service.refresh(refreshToken: request.session!.refreshToken)
            return CallOutput(session: Session(issued))
        case .motivation:
            let message = try await service.motivation(accessToken: request.session!.accessToken)
            return CallOutput(values: ["motivation": .text(message)])
        }
    }

    private func withTimeout<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let limit = timeout
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw ServiceError(.timeout, "The service did not answer in time.")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}

extension Session {
    init(_ issued: IssuedSession) {
        self.init(
            userID: issued.userID, accessToken: issued.accessToken, accessExpiresAt: issued.accessExpiresAt,
            refreshToken: issued.refreshToken, refreshExpiresAt: issued.refreshExpiresAt,
            isAnonymous: issued.isAnonymous, createdAt: issued.createdAt, lastAuthenticated: issued.issuedAt)
    }
}
