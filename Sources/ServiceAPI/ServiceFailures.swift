/// The failures a person reads when the service itself is the trouble — not reached,
/// silent, garbled, broken — written once for the transports, the server and the store.
/// A refusal (a wrong password, a taken email) is the service's own and says its rule
/// where it is made.
extension ServiceError {
    // Not reached, or no answer in time
    public static func unreachable(_ base: String, reason: String) -> ServiceError {
        ServiceError(.network, "Cannot reach the service at \(base) (\(reason)).")
    }
    public static func insecureHandshake(_ base: String, reason: String) -> ServiceError {
        ServiceError(
            .network,
            "The service at \(base) answered, but no secure (TLS) connection could be made (\(reason)). If it is an onboard-server started without --tls-cert, its address begins with http://."
        )
    }
    public static func noAnswer(_ base: String) -> ServiceError {
        ServiceError(.timeout, "The service at \(base) did not answer in time.")
    }
    /// The operation's own deadline ran out, whichever service it called.
    public static let noAnswerInTime = ServiceError(.timeout, "The service did not answer in time.")
    public static func unavailable(_ base: String, status: Int) -> ServiceError {
        ServiceError(.network, "The service at \(base) is unavailable (HTTP \(status)).")
    }

    // An answer Onboard cannot use
    public static func unreadable(_ base: String, status: Int) -> ServiceError {
        ServiceError(.badResponse, "The service at \(base) answered with something Onboard cannot read (HTTP \(status)).")
    }
    public static func tooLarge(_ base: String) -> ServiceError {
        ServiceError(.badResponse, "The service at \(base) sent a reply too large to read.")
    }
    public static func unexplained(_ base: String, status: Int) -> ServiceError {
        ServiceError(.badResponse, "The service at \(base) answered HTTP \(status) without an explanation.")
    }

    // The service broke
    public static func failed(_ base: String, status: Int) -> ServiceError {
        ServiceError(.serverError, "The service at \(base) failed (HTTP \(status)).")
    }
    public static let failedUnexpectedly = ServiceError(.serverError, "The service failed unexpectedly.")
    public static func databaseFailed(_ cause: String) -> ServiceError {
        ServiceError(.serverError, "The service's database failed: \(cause)")
    }

    /// Too many calls, when the service did not say how long to wait.
    public static let tooManyAttempts = ServiceError(.rateLimited, "Too many attempts. Please wait and try again.")
}
