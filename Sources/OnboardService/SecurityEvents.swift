import Logging
import ServiceAPI

/// The security decisions an operator must be able to find (ASVS 7.1.3, 7.2.1):
/// one structured line each, with the event, whose account (a user id, or a hash of the
/// email: never the address), from where, and what was decided. Never a secret.
public enum SecurityEvent: String, Sendable {
    case loginFailed = "login_failed"
    case loginLocked = "login_locked"
    case rateLimited = "rate_limited"
    case refreshTokenReused = "refresh_token_reused"
    case socialTokenRefused = "social_token_refused"
    case idempotencyKeyReused = "idempotency_key_reused"
    case adminTokenRefused = "admin_token_refused"
}

extension OnboardService {
    /// A logger that says nothing: the embedded mock runs under a full-screen terminal.
    public static let silent = Logger(label: "onboard.security", factory: { _ in SwiftLogNoOpLogHandler() })

    func record(_ event: SecurityEvent, account: String? = nil, address: String? = nil, outcome: String) {
        var metadata: Logger.Metadata = ["event": .string(event.rawValue), "outcome": .string(outcome)]
        if let account { metadata["account"] = .string(account) }
        if let address { metadata["address"] = .string(address) }
        securityLog.notice("security", metadata: metadata)
    }

    /// A request for the operator's reports without the admin token.
    public func recordAdminRefusal(address: String) {
        record(.adminTokenRefused, address: address, outcome: "refused: /api/v1/admin without the operator's token")
    }

    /// An attempt at the operator's reports from `address`, `check` judging its token: as
    /// with a password, each attempt reserves one of the address's failures first and a
    /// right token gives it back, so at most 10 wrong tokens per 15 minutes are judged
    /// (ASVS 2.2.1), and a restart gives none back.
    /// A request with no token at all guesses nothing: it is refused (401) uncounted.
    public func admitAdminAttempt(from address: String, presentsToken: Bool = true, _ check: () throws -> Void) async throws {
        guard presentsToken else {
            recordAdminRefusal(address: address)
            return try check()
        }
        let key = "admin-failures:" + address
        let now = clock.now()
        if let wait = try await store.hitLockout(key, settings.adminFailuresPerAddress, now: now) {
            record(.adminTokenRefused, address: address, outcome: "refused for \(wait) s: too many wrong admin tokens")
            throw Self.tooMany(wait)
        }
        do {
            try check()
        } catch {
            recordAdminRefusal(address: address)
            throw error
        }
        try await store.releaseLockout(key, settings.adminFailuresPerAddress, now: now)
    }

    /// An email as the log names it: a short keyed-free hash, enough to follow one
    /// account's events, never the address itself.
    static func logName(email: String) -> String {
        "email:" + Secrets.hash("security-log:" + email).prefix(16)
    }
}
