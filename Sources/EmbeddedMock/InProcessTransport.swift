import OnboardService
import ServiceAPI
import ServiceClient

/// The embedded mock: `OnboardService` called directly, over its own SQLite file, serving
/// each call as onboard-server's routes do (`OnboardService.answer`).
public struct InProcessTransport: AuthService {
    public let service: OnboardService
    /// Stands for the client's address in per-address rate limits.
    static let client = "local"

    public init(service: OnboardService) {
        self.service = service
    }

    public func send<Call: WireCall>(_ call: Call, bearer: String?) async throws -> Call.Answer {
        let caller = Caller(
            bearer: bearer, client: Self.client, idempotencyKey: CallContext.idempotencyKey, idempotencyProof: CallContext.idempotencyProof,
            deviceToken: CallContext.deviceToken)
        return try await service.answer(call, as: caller)
    }
}
