/// Tokens issued to a signed-in user. Times are seconds since 1970, service clock.
public struct IssuedSession: Equatable, Sendable, Codable {
    public var userID: String
    public var accessToken: String
    public var accessExpiresAt: Int64
    public var refreshToken: String
    /// nil: never expires.
    public var refreshExpiresAt: Int64?
    public var isAnonymous: Bool
    public var createdAt: Int64
    public var issuedAt: Int64

    enum CodingKeys: String, CodingKey {
        case userID = "user_id", accessToken = "access_token", accessExpiresAt = "access_expires_at"
        case refreshToken = "refresh_token", refreshExpiresAt = "refresh_expires_at"
        case isAnonymous = "is_anonymous", createdAt = "created_at", issuedAt = "issued_at"
    }
}

/// An anonymous sign-in: the session and three names to choose from (BR-ONB-004).
public struct AnonymousSignIn: Equatable, Sendable, Codable {
    public var session: IssuedSession
    public var nameOptions: [String]

    enum CodingKeys: String, CodingKey {
        case session, nameOptions = "name_options"
    }
}

public struct Profile: Equatable, Sendable, Codable {
    public var userID: String
    public var displayName: String?
    public var email: String?
    public var phone: String?
    public var isAnonymous: Bool
    /// Profile fields beyond the account (ABBY's basic and extended profile).
    public var fields: [String: FieldValue]

    enum CodingKeys: String, CodingKey {
        case userID = "user_id", displayName = "display_name", email, phone, isAnonymous = "is_anonymous", fields
    }

    public init(userID: String, displayName: String?, email: String? = nil, phone: String? = nil, isAnonymous: Bool, fields: [String: FieldValue] = [:]) {
        self.userID = userID
        self.displayName = displayName
        self.email = email
        self.phone = phone
        self.isAnonymous = isAnonymous
        self.fields = fields
    }
}

/// How long a flow's tokens live, in seconds; nil refresh lifetime never expires.
public struct TokenPolicy: Equatable, Sendable, Codable {
    public var accessLifetime: Int64
    public var refreshLifetime: Int64?

    public init(accessLifetime: Int64, refreshLifetime: Int64?) {
        self.accessLifetime = accessLifetime
        self.refreshLifetime = refreshLifetime
    }

    /// Anonymous guests: access 24 h, refresh never expires, so a guest is never orphaned.
    public static let anonymous = TokenPolicy(accessLifetime: 24 * 3600, refreshLifetime: nil)
    /// Named accounts: access 24 h, refresh 30 days, renewed with each use (so a user is
    /// logged out after 30 days unused).
    public static let named = TokenPolicy(accessLifetime: 24 * 3600, refreshLifetime: 30 * 86_400)
}

/// The service's time source. The offset lets QA run "as if later" to expire tokens.
public protocol ServiceClock: Sendable {
    /// Seconds since 1970.
    func now() -> Int64
}

public struct SystemClock: ServiceClock {
    public var offset: Int64

    public init(offset: Int64 = 0) {
        self.offset = offset
    }

    public func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) + offset
    }
}

/// How far QA may move a clock either way: a century covers every expiry in the specs,
/// and keeps every "now plus a lifetime" well inside 64 bits.
public enum ClockOffset {
    public static let limitSeconds: Int64 = 100 * 366 * 86_400

    public static func isAllowed(_ seconds: Int64) -> Bool {
        (-limitSeconds...limitSeconds).contains(seconds)
    }
}

/// A clock QA can move while the service runs (`onboard-server --dev`).
public final class AdjustableClock: ServiceClock {
    private let offset: Mutex<Int64>

    public init(offset: Int64 = 0) {
        self.offset = Mutex(offset)
    }

    public var offsetSeconds: Int64 {
        get { offset.withLock { $0 } }
        set { offset.withLock { $0 = newValue } }
    }

    public func now() -> Int64 {
        SystemClock(offset: offsetSeconds).now()
    }
}

import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
