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
}

/// An anonymous sign-in: the session and three names to choose from (BR-ONB-004).
public struct AnonymousSignIn: Equatable, Sendable, Codable {
    public var session: IssuedSession
    public var nameOptions: [String]
}

public struct Profile: Equatable, Sendable, Codable {
    public var userID: String
    public var displayName: String?
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
