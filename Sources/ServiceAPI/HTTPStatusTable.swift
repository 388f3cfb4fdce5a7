/// Which HTTP status carries which error code, both ways, written once: the server
/// answers a `ServiceError` with `httpStatus`; a client reading a failed answer without
/// the API's envelope (a proxy's error page, a bare 500) names it with `fromStatus`.
extension ServiceError.Code {
    public var httpStatus: Int {
        switch self {
        // RFC 8628's poll answers are RFC 6749 §5.2 errors: 400.
        case .invalidInput, .authorizationPending, .slowDown, .accessDenied, .expiredToken: 400
        case .unauthorized: 401
        case .notFound: 404
        case .conflict: 409
        case .idempotencyKeyReused: 422
        case .rateLimited: 429
        case .network: 503
        case .timeout: 504
        case .serverError, .badResponse: 500
        }
    }
}

extension ServiceError {
    /// A failed answer that says nothing but its status, from the service at `base`.
    public static func fromStatus(_ status: Int, service base: String) -> ServiceError {
        switch status {
        case 401, 403: .sessionRejected
        case 429: .tooManyAttempts
        case 502, 503, 504: .unavailable(base, status: status)
        case 500..<600: .failed(base, status: status)
        default: .unexplained(base, status: status)
        }
    }
}
