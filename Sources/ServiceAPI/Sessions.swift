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
    /// After a password sign-in: this device's token for the account, sent with its later
    /// log-ins (`Device-Token`), so another's wrong guesses never lock it out.
    public var deviceToken: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id", accessToken = "access_token", accessExpiresAt = "access_expires_at"
        case refreshToken = "refresh_token", refreshExpiresAt = "refresh_expires_at"
        case isAnonymous = "is_anonymous", createdAt = "created_at", issuedAt = "issued_at", deviceToken = "device_token"
    }

    public init(
        userID: String, accessToken: String, accessExpiresAt: Int64, refreshToken: String, refreshExpiresAt: Int64?,
        isAnonymous: Bool, createdAt: Int64, issuedAt: Int64
    ) {
        self.userID = userID
        self.accessToken = accessToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
        self.isAnonymous = isAnonymous
        self.createdAt = createdAt
        self.issuedAt = issuedAt
    }
}

/// An anonymous sign-in: the session and three names to choose from (BR-ONB-004).
public struct AnonymousSignIn: Equatable, Sendable, Codable {
    public var session: IssuedSession
    public var nameOptions: [String]

    enum CodingKeys: String, CodingKey {
        case session, nameOptions = "name_options"
    }

    public init(session: IssuedSession, nameOptions: [String]) {
        self.session = session
        self.nameOptions = nameOptions
    }
}

/// A sign-in that may have created the account (phone, social).
public struct SignIn: Equatable, Sendable, Codable {
    public var session: IssuedSession
    public var isNewUser: Bool

    enum CodingKeys: String, CodingKey {
        case session, isNewUser = "is_new_user"
    }

    public init(session: IssuedSession, isNewUser: Bool) {
        self.session = session
        self.isNewUser = isNewUser
    }
}

public struct PhoneCodeSent: Equatable, Sendable, Codable {
    /// The number in E.164 form, as the code was sent to it.
    public var phone: String
    public var expiresIn: Int64
    public var resendAfter: Int64

    enum CodingKeys: String, CodingKey {
        case phone, expiresIn = "expires_in", resendAfter = "resend_after"
    }

    public init(phone: String, expiresIn: Int64, resendAfter: Int64) {
        self.phone = phone
        self.expiresIn = expiresIn
        self.resendAfter = resendAfter
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
