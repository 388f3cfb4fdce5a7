/// A failure with a stable code that clients branch on, and a plain message.
public struct ServiceError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    public enum Code: String, Sendable, Codable, CaseIterable {
        case network
        case timeout
        case serverError = "server_error"
        case rateLimited = "rate_limited"
        case unauthorized
        case invalidInput = "invalid_input"
        case notFound = "not_found"
        case conflict
        case badResponse = "bad_response"
        /// An Idempotency-Key used again for a different request (HTTP 422).
        case idempotencyKeyReused = "idempotency_key_reused"
        // A device authorization's poll (RFC 8628 §3.5), each its own answer.
        /// The person has not approved yet: poll again after the interval.
        case authorizationPending = "authorization_pending"
        /// Polled sooner than the interval: wait 5 seconds longer from now on.
        case slowDown = "slow_down"
        /// The person said no: back to the choice, with no error.
        case accessDenied = "access_denied"
        /// The code ran out (or was used): start again.
        case expiredToken = "expired_token"

        /// Worth trying again as it is: the request was not judged (no network, an
        /// overloaded or garbled answer), unlike a refusal.
        public var isTransient: Bool {
            switch self {
            case .network, .timeout, .serverError, .rateLimited, .badResponse: true
            case .unauthorized, .invalidInput, .notFound, .conflict, .idempotencyKeyReused, .authorizationPending, .slowDown, .accessDenied,
                .expiredToken:
                false
            }
        }

        /// The service was not reached, or did not answer: what this device does alone
        /// (a ruck kept, a guest on this device) is still right.
        public var isUnreachable: Bool { self == .network || self == .timeout }
    }

    public var code: Code
    public var message: String
    /// Seconds to wait before trying again (rate limits).
    public var retryAfter: Int?

    enum CodingKeys: String, CodingKey {
        case code, message, retryAfter = "retry_after"
    }

    public init(_ code: Code, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static let sessionRejected = ServiceError(.unauthorized, "Your session is no longer valid. Please sign in again.")
}
