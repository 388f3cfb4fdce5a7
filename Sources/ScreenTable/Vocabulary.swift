/// The fixed vocabulary a flow file may name. The behaviour behind each word is Swift;
/// the table only names it, and the linter rejects any other word.
public enum Operation: String, Sendable, CaseIterable {
    /// Checks the service answers.
    case health
    /// Creates an anonymous account; fills `user_id` and `name_options`.
    case signInAnonymously = "sign_in_anonymously"
    /// Finalises the anonymous profile with `chosen_name`; fills `display_name`.
    case chooseName = "choose_name"
    /// Renews the session with its refresh token.
    case refreshSession = "refresh_session"
    /// A random motivational message; fills `motivation`.
    case motivation

    /// Context keys the operation reads.
    public var inputs: [String] {
        switch self {
        case .chooseName: ["chosen_name"]
        default: []
        }
    }

    /// Whether the operation needs a signed-in session.
    public var needsSession: Bool {
        switch self {
        case .chooseName, .refreshSession, .motivation: true
        case .health, .signInAnonymously: false
        }
    }
}

/// Result codes a service call can end with, as `on:` keys. `success` and the
/// catch-all `error` come on top of these. They match the service's error codes.
public enum ResultCode {
    public static let serviceErrors: Set<String> = [
        "network", "timeout", "server_error", "rate_limited", "unauthorized",
        "invalid_input", "not_found", "conflict", "bad_response",
    ]
    public static let all: Set<String> = serviceErrors.union(["success", "error"])
}
