import Foundation
import ServiceAPI

// The values `ServiceStore`'s operations take and give: rows as the domain reads them,
// and the outcomes an operation can have.

/// A refresh token to keep (hashed), with the lifetimes it grants.
public struct NewRefreshToken: Sendable {
    public var hash: String
    public var userID: String
    public var family: String
    public var createdAt: Int64
    public var expiresAt: Int64?
    public var policy: TokenPolicy

    /// Issued `now` under `policy`: its refresh lifetime counts from now.
    public init(hash: String, userID: String, family: String, now: Int64, policy: TokenPolicy) {
        self.hash = hash
        self.userID = userID
        self.family = family
        createdAt = now
        expiresAt = policy.refreshLifetime.map { now + $0 }
        self.policy = policy
    }

    /// The same token granted to another user (a sign-in that found an existing account).
    public func granted(to userID: String) -> NewRefreshToken {
        var token = self
        token.userID = userID
        return token
    }
}

public struct Credentials: Sendable {
    public var userID: String
    public var createdAt: Int64
    /// nil: an account without a password (phone, social).
    public var passwordHash: String?

    public init(userID: String, createdAt: Int64, passwordHash: String?) {
        self.userID = userID
        self.createdAt = createdAt
        self.passwordHash = passwordHash
    }
}

public enum LinkOutcome: Sendable {
    case linked(createdAt: Int64)
    case noSuchUser
    case alreadyNamed
    case emailTaken
}

public enum Rotation: Sendable {
    /// The successor token, stored; the account's creation time and kind.
    case granted(NewRefreshToken, isAnonymous: Bool, createdAt: Int64)
    case rejected
    /// A token rotated longer ago than the grace was used again: its family is revoked.
    case reused(userID: String)
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

/// One event to count against a rate limit.
public struct RateLimitHit: Sendable {
    public var key: String
    public var rule: RateLimit

    public init(key: String, rule: RateLimit) {
        self.key = key
        self.rule = rule
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

public struct SignedInUser: Sendable {
    public var userID: String
    public var createdAt: Int64
    public var isNew: Bool

    public init(userID: String, createdAt: Int64, isNew: Bool) {
        self.userID = userID
        self.createdAt = createdAt
        self.isNew = isNew
    }
}

public enum ProfileUpdate: Sendable {
    case updated(Profile)
    case tooLarge
    case displayNameTaken
}

public enum IdempotencyClaim: Sendable, Equatable {
    case claimed
    case running
    case finished(Data)
    case otherOperation
    /// The same key and operation, another request (body, proof): refused, never replayed.
    case otherRequest
}

/// A device authorization as it is made: the device code only as its hash.
public struct NewDeviceGrant: Sendable, Equatable {
    public var deviceCodeHash: String
    /// Normalised: upper case, no dash.
    public var userCode: String
    public var provider: String
    public var createdAt: Int64
    public var expiresAt: Int64
    public var interval: Int64
    /// The address of the terminal that asked, said on the page that confirms it.
    public var requestedFrom: String

    public init(
        deviceCodeHash: String, userCode: String, provider: String, createdAt: Int64, expiresAt: Int64, interval: Int64, requestedFrom: String = ""
    ) {
        (self.deviceCodeHash, self.userCode, self.provider, self.createdAt, self.expiresAt, self.interval, self.requestedFrom) =
            (deviceCodeHash, userCode, provider, createdAt, expiresAt, interval, requestedFrom)
    }
}

/// A grant waiting under a user code: what the page that confirms it says (which
/// provider, when and from where the terminal asked).
public struct PendingDeviceGrant: Sendable, Equatable {
    public var provider: String
    public var expiresAt: Int64
    public var createdAt: Int64
    public var requestedFrom: String

    public init(provider: String, expiresAt: Int64, createdAt: Int64 = 0, requestedFrom: String = "") {
        (self.provider, self.expiresAt, self.createdAt, self.requestedFrom) = (provider, expiresAt, createdAt, requestedFrom)
    }
}

/// Who the provider says approved a grant.
public struct DeviceIdentity: Sendable, Equatable {
    public var subject: String
    public var email: String?

    public init(subject: String, email: String?) {
        (self.subject, self.email) = (subject, email)
    }
}

public enum DeviceGrantPoll: Sendable, Equatable {
    case unknown
    case expired
    /// Polled too soon: the grant's interval is now `interval` (five seconds more, RFC
    /// 8628 §3.5, for this and every later poll).
    case slowDown(interval: Int64)
    case pending
    case denied
    case approved(provider: String, identity: DeviceIdentity, expiresAt: Int64)
}

extension ServiceStore {
    /// One key after the other: a store whose counts cost no round trip (SQLite's are
    /// in memory) needs no more.
    public func hitRateLimits(_ keys: [String], _ rule: RateLimit, now: Int64) async throws -> [Int64?] {
        var waits: [Int64?] = []
        for key in keys { waits.append(try await hitRateLimit(key, rule, now: now)) }
        return waits
    }

    /// The session's check, then the counts.
    public func hitRateLimits(_ keys: [String], _ rule: RateLimit, now: Int64, forLiveSession userID: String, family: String?) async throws
        -> [Int64?]?
    {
        guard try await sessionIsLive(userID: userID, family: family) else { return nil }
        return try await hitRateLimits(keys, rule, now: now)
    }
}
