import Foundation
import ServiceAPI

/// Idempotency keys: a request sent twice is done once, and its answer given again.
public protocol IdempotencyStore: Sendable {
    /// Claims `id` for `operation` and the request's hash, or says what holds it: a row
    /// from before request hashes were kept matches any request of its operation.
    func claimIdempotency(
        _ id: String, operation: String, request: String, now: Int64, window: Int64, wait: Int64
    ) async throws -> IdempotencyClaim
    func sealIdempotency(_ id: String, result: Data) async throws
    func releaseIdempotency(_ id: String) async throws
}

public enum IdempotencyClaim: Sendable, Equatable {
    case claimed
    case running
    case finished(Data)
    case otherOperation
    /// The same key and operation, another request (body, proof): refused, never replayed.
    case otherRequest
}
