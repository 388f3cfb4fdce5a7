import ServiceAPI

/// Accounts: guests and the names reserved for them, email accounts, the accounts a phone
/// code or a provider signs in to. Each operation that makes or finds an account grants
/// its refresh token in the same transaction (see `RefreshTokenStore`).
public protocol AccountStore: Sendable {
    /// A guest: the user, the names reserved for it service-wide (`NameReservation`), its
    /// refresh token. The same id again (an idempotency key whose answer was lost) is the
    /// same guest with a new session and the names it was offered.
    func createGuest(_ userID: String, at now: Int64, names: NameDraw, token: NewRefreshToken) async throws -> [String]
    /// Sets the display name if it was offered to this user; nil when it was not.
    func chooseOfferedName(_ name: String, for userID: String) async throws -> ProfileRow?
    /// Whether an access token's account still exists and, for a token that names its
    /// refresh family, the family still has a token not revoked (not logged out, not
    /// ended by reuse detection): one query per authenticated request.
    func sessionIsLive(userID: String, family: String?) async throws -> Bool
    /// An email account with its refresh token; false when the email is taken.
    func createAccount(
        _ userID: String, at now: Int64, email: String, passwordHash: String, name: String, token: NewRefreshToken
    ) async throws -> Bool
    func credentials(email: String) async throws -> Credentials?
    /// Names a guest's account and grants its refresh token.
    func linkEmail(to userID: String, email: String, passwordHash: String, token: NewRefreshToken) async throws -> LinkOutcome
    /// Spends the ID token's id (nil when it was spent before) and finds or creates the
    /// provider's user (as `token.userID`), granting it `token`; the email is kept unless
    /// another account has it.
    func socialUser(
        tokenID: String, tokenExpiry: Int64, provider: String, subject: String, email: String?, now: Int64, token: NewRefreshToken
    ) async throws -> SignedInUser?
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
