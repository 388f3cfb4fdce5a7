import ServiceAPI

/// Refresh tokens, kept as hashes in rotation families.
public protocol RefreshTokenStore: Sendable {
    /// A sign-in's refresh token. Every operation that makes or changes an account grants
    /// its token in the same transaction, so a failure between the two (a database lost
    /// mid-request) never leaves an account its caller cannot get a session for.
    func addRefreshToken(_ token: NewRefreshToken) async throws
    /// Marks the token rotated and grants its user the successor (`successorHash`, same
    /// family and lifetimes), or revokes its whole family when a token rotated longer than
    /// `grace` ago comes back (it leaked).
    func rotateRefreshToken(hash: String, now: Int64, grace: Int64, successorHash: String) async throws -> Rotation
    /// Revokes the family of the token with this hash.
    func revokeFamily(ofTokenHash hash: String, now: Int64) async throws
}

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

public enum Rotation: Sendable {
    /// The successor token, stored; the account's creation time and kind.
    case granted(NewRefreshToken, isAnonymous: Bool, createdAt: Int64)
    case rejected
    /// A token rotated longer ago than the grace was used again: its family is revoked.
    case reused(userID: String)
}
