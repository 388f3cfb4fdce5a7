import ServiceAPI

/// Children and the invites that share them (Baby Basics).
public protocol FamilyStore: Sendable {
    func addChild(_ child: Child, by userID: String, now: Int64) async throws
    func children(of userID: String) async throws -> [Child]
    /// False when the child is not on the user's account.
    func createInvite(
        codeHash: String, childID: String, by userID: String, now: Int64, expiresAt: Int64, outbox: OutboxEntry?
    ) async throws -> Bool
    /// Spends an unused, unexpired invite (one winner however many race) and shares its
    /// child; nil when there is no such invite, or its child is already on the user's
    /// account (the code is kept for whom it was meant).
    func redeemInvite(codeHash: String, by userID: String, now: Int64) async throws -> InviteRedemption?
    /// The name of the child a live, unused invite shares when the user already tracks it.
    func childAlreadyTracked(inviteCodeHash: String, by userID: String, now: Int64) async throws -> String?
}

/// A redeemed invite as the store reads it: the child, and what it knows of who shared
/// it (the domain says who, `InviteAcceptance(_:)`).
public struct InviteRedemption: Sendable, Equatable {
    public var child: Child
    /// The sharer's name, display name and email, any of them nil (an account since
    /// deleted has none).
    public var sharerName: String?
    public var sharerDisplayName: String?
    public var sharerEmail: String?

    public init(child: Child, sharerName: String?, sharerDisplayName: String?, sharerEmail: String?) {
        (self.child, self.sharerName, self.sharerDisplayName, self.sharerEmail) = (child, sharerName, sharerDisplayName, sharerEmail)
    }
}
