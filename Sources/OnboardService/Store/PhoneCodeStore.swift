import ServiceAPI

/// SMS sign-in codes, kept as keyed hashes.
public protocol PhoneCodeStore: Sendable {
    /// Stores a code for `phone` unless one was sent less than `resendAfter` ago, or the
    /// sender is over `limit` (counted only for a code that would be sent); `outbox`
    /// keeps the code in clear for QA.
    func storePhoneCode(_ code: PhoneCode, resendAfter: Int64, limit: RateLimitHit, outbox: OutboxEntry?) async throws -> PhoneCodeStored
    /// Checks a code: a wrong one counts an attempt; the right one is spent and signs in
    /// (or up, as `token.userID`) the phone's user, granting it `token`.
    func spendPhoneCode(
        phone: String, codeHash: String, now: Int64, maximumAttempts: Int, token: NewRefreshToken
    ) async throws -> PhoneCodeOutcome
}

public struct PhoneCode: Sendable {
    public var phone: String
    public var hash: String
    public var sentAt: Int64
    public var expiresAt: Int64

    public init(phone: String, hash: String, sentAt: Int64, expiresAt: Int64) {
        self.phone = phone
        self.hash = hash
        self.sentAt = sentAt
        self.expiresAt = expiresAt
    }
}

public enum PhoneCodeStored: Sendable {
    case stored
    /// A code went out less than `resendAfter` ago: seconds to wait.
    case resendIn(Int64)
    /// Over the limit: seconds to wait.
    case limited(Int64)
}

public enum PhoneCodeOutcome: Sendable {
    case signedIn(SignedInUser)
    case noCode
    case tooManyAttempts
    case expired
    /// Wrong: this many attempts are left.
    case wrong(attemptsLeft: Int)
}
