/// A failure QA can inject, by name on the command line (`--fault KIND`).
public enum Fault: Equatable, Sendable, CustomStringConvertible {
    /// Every call fails as if the network were down.
    case network
    /// Every call fails with a server error.
    case serverError
    /// Every call is rate limited, with a retry-after.
    case rateLimit
    /// Every call ends as one the service never answered in time would, at once rather
    /// than after the client's `CallDeadlines.operation`: the timeout states without the wait.
    case timeout
    /// Every call is delayed by this many milliseconds.
    case slow(milliseconds: Int)
    /// The first N calls fail as if the network were down; later ones pass.
    case failFirst(Int)
    /// The service rejects every refresh (a revoked or unknown session).
    case reauthFail
    /// The identity provider's tokens arrive with a broken signature, as a forgery
    /// would, so the service refuses the social sign-in.
    case forgedIDToken
    /// Every other poll of a device sign-in is answered `slow_down` (RFC 8628 §3.5): the
    /// device must poll five seconds less often from then on.
    case slowDown
    /// A device sign-in's poll is answered `expired_token`, as when the code ran out.
    case expiredDeviceCode

    public static let kinds = [
        "network", "server-error", "rate-limit", "timeout", "slow=MS", "fail-first=N", "reauth-fail", "forged-id-token", "slow-down",
        "expired-device-code",
    ]

    public init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        switch (parts.first ?? "", parts.count > 1 ? Int(parts[1]) : nil) {
        case ("network", nil) where parts.count == 1: self = .network
        case ("server-error", nil) where parts.count == 1: self = .serverError
        case ("rate-limit", nil) where parts.count == 1: self = .rateLimit
        case ("timeout", nil) where parts.count == 1: self = .timeout
        case ("reauth-fail", nil) where parts.count == 1: self = .reauthFail
        case ("forged-id-token", nil) where parts.count == 1: self = .forgedIDToken
        case ("slow-down", nil) where parts.count == 1: self = .slowDown
        case ("expired-device-code", nil) where parts.count == 1: self = .expiredDeviceCode
        case ("slow", let value?) where value >= 0: self = .slow(milliseconds: value)
        case ("fail-first", let value?) where value >= 0: self = .failFirst(value)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .network: "network"
        case .serverError: "server-error"
        case .rateLimit: "rate-limit"
        case .timeout: "timeout"
        case .slow(let milliseconds): "slow=\(milliseconds)"
        case .failFirst(let count): "fail-first=\(count)"
        case .reauthFail: "reauth-fail"
        case .forgedIDToken: "forged-id-token"
        case .slowDown: "slow-down"
        case .expiredDeviceCode: "expired-device-code"
        }
    }
}
