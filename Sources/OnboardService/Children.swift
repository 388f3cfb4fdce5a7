import CivilCalendar
import InputRules
import ServiceAPI

/// Baby Basics: children, and invites that share a child with another account. Invite
/// codes are long and random, stored hashed, single use (one conditional UPDATE, so two
/// racing redemptions cannot both win) and expire; unknown, used and expired codes get
/// one and the same answer.
extension OnboardService {
    public static let invalidInvite = ServiceError(.notFound, "This invite link is invalid or has already been used.")

    public func addChild(accessToken: String, name: String, birthDate: String?, idempotencyKey: String? = nil) async throws -> Child {
        let (userID, _) = try await authenticate(accessToken)
        return try await idempotent(
            idempotencyKey, operation: "add_child", caller: userID, request: ["name": name, "birth_date": birthDate ?? ""]
        ) {
            let now = clock.now()
            let name = name.trimmingWhitespace
            guard (1...100).contains(name.count) else { throw ServiceError(.invalidInput, "Please enter your baby's name.") }
            // Shown to every member the child is shared with.
            guard !name.hasControlOrBidi else {
                throw ServiceError(.invalidInput, "The name cannot hold control or text-direction characters.")
            }
            if let birthDate, !Self.isDate(birthDate) {
                throw ServiceError(.invalidInput, "Please enter the date of birth as YYYY-MM-DD.")
            }
            let child = Child(id: "c_" + Secrets.randomHex(bytes: 12), name: name, birthDate: birthDate)
            try await store.addChild(child, by: userID, now: now)
            return child
        }
    }

    public func children(accessToken: String) async throws -> [Child] {
        let (userID, _) = try await authenticate(accessToken)
        return try await store.children(of: userID)
    }

    public func createInvite(accessToken: String, childID: String, idempotencyKey: String? = nil) async throws -> Invite {
        let (userID, _) = try await authenticate(accessToken)
        return try await idempotent(idempotencyKey, operation: "create_invite", caller: userID, request: ["child_id": childID]) {
            let now = clock.now()
            // 128 random bits (ASVS 3.2.2 asks 64 of a session token): single use, 7 days,
            // rate limited. 32 hex digits keep the link (57 characters) on one line of an
            // 80x24 card, so a mouse copies it whole (48 digits wrapped over the
            // border and a copy picked up the box's "│").
            let code = Secrets.randomHex(bytes: 16)
            let expiresAt = now + settings.inviteLifetime
            let outbox = settings.keepsOutbox ? OutboxEntry(kind: "invite", destination: childID, code: code, createdAt: now) : nil
            guard
                try await store.createInvite(
                    codeHash: Secrets.hash(code), childID: childID, by: userID, now: now, expiresAt: expiresAt, outbox: outbox)
            else { throw ServiceError(.notFound, "There is no such child on your account.") }
            return Invite(code: code, expiresAt: expiresAt)
        }
    }

    public func acceptInvite(
        accessToken: String, code: String, client: String = "local", idempotencyKey: String? = nil
    ) async throws -> InviteAcceptance {
        // A replay answers from what is stored, so with a key the session is checked
        // first; without one, its check rides with the rate-limit count (one round trip).
        let claims = try await accessTokens.verify(accessToken, now: clock.now())
        let userID = claims.sub.value
        if idempotencyKey != nil { try await requireLive(claims) }
        return try await idempotent(idempotencyKey, operation: "accept_invite", caller: userID, request: ["code": code]) {
            let now = clock.now()
            try await limits(
                [("invite", client, nil), ("invite-user", nil, userID)], settings.invitesPerAddress, now: now,
                liveSession: idempotencyKey == nil ? claims : nil)
            // Hex: its letters have no case that means anything, so an upper-case paste works too.
            let hash = Secrets.hash(code.trimmingWhitespace.lowercased())
            guard let redeemed = try await store.redeemInvite(codeHash: hash, by: userID, now: now) else {
                // The inviter (or anyone already sharing the baby) spends nothing: the code
                // stays good for the person it was made for.
                if let name = try await store.childAlreadyTracked(inviteCodeHash: hash, by: userID, now: now) {
                    throw ServiceError(
                        .conflict, "You already track \(name). This invite was not used: it still works for the person you meant it for.")
                }
                throw Self.invalidInvite
            }
            return InviteAcceptance(redeemed)
        }
    }

    static func isDate(_ text: String) -> Bool {
        guard let date = CivilDate(text) else { return false }
        return (1900...2200).contains(date.year)
    }
}

extension InviteAcceptance {
    /// "Shared by": the sharer's name, else their display name, else their email; an
    /// account since deleted is "someone".
    init(_ redemption: InviteRedemption) {
        self.init(
            child: redemption.child,
            sharedBy: redemption.sharerName ?? redemption.sharerDisplayName ?? redemption.sharerEmail ?? "someone")
    }
}
