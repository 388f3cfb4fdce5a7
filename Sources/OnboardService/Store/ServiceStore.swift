import Foundation
import ServiceAPI

/// Where the service keeps what it knows, as atomic domain operations: each one a single
/// transaction, safe when several processes (terminals sharing the mock's file, server
/// instances sharing a database) run it at once. The domain code (accounts, tokens, codes,
/// invites, profiles) decides; the store only keeps. SQLite (`SQLiteStore`, the embedded
/// mock and a single server) and PostgreSQL (`PostgresStore`, several server instances).
///
/// Why operations and not a query layer: SQLite relies on its single writer where another
/// database needs `SELECT … FOR UPDATE` or a conditional `UPDATE … RETURNING`; each store
/// says how it makes its operation atomic.
public protocol ServiceStore: Sendable {
    // MARK: Keys
    /// A secret kept in the store: the first process to ask stores `fresh`, every later
    /// one gets what was stored.
    func storedKey(named name: String, fresh: [UInt8]) async throws -> [UInt8]

    // MARK: Accounts
    /// A guest: the user, the names reserved for it service-wide, its refresh token.
    func createGuest(_ userID: String, at now: Int64, names: NameDraw, token: NewRefreshToken) async throws -> [String]
    /// Sets the display name if it was offered to this user; nil when it was not.
    func chooseOfferedName(_ name: String, for userID: String) async throws -> Profile?
    func profile(of userID: String) async throws -> Profile
    /// Whether an access token's account still exists and, for a token that names its
    /// refresh family, the family still has a token not revoked (not logged out, not
    /// ended by reuse detection): one query per authenticated request.
    func sessionIsLive(userID: String, family: String?) async throws -> Bool
    /// An email account with its refresh token; false when the email is taken.
    func createAccount(_ userID: String, at now: Int64, email: String, passwordHash: String, name: String, token: NewRefreshToken) async throws -> Bool
    func credentials(email: String) async throws -> Credentials?
    /// Names a guest's account and grants its refresh token.
    func linkEmail(to userID: String, email: String, passwordHash: String, token: NewRefreshToken) async throws -> LinkOutcome

    // MARK: Refresh tokens
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

    // MARK: Phone codes
    /// Stores a code for `phone` unless one was sent less than `resendAfter` ago, or the
    /// sender is over `limit` (counted only for a code that would be sent); `outbox`
    /// keeps the code in clear for QA.
    func storePhoneCode(_ code: PhoneCode, resendAfter: Int64, limit: RateLimitHit, outbox: OutboxEntry?) async throws -> PhoneCodeStored
    /// Checks a code: a wrong one counts an attempt; the right one is spent and signs in
    /// (or up, as `token.userID`) the phone's user, granting it `token`.
    func spendPhoneCode(phone: String, codeHash: String, now: Int64, maximumAttempts: Int, token: NewRefreshToken) async throws -> PhoneCodeOutcome

    // MARK: Social sign-in
    /// Spends the ID token's id (nil when it was spent before) and finds or creates the
    /// provider's user (as `token.userID`), granting it `token`; the email is kept unless
    /// another account has it.
    func socialUser(tokenID: String, tokenExpiry: Int64, provider: String, subject: String, email: String?, now: Int64, token: NewRefreshToken) async throws -> SignedInUser?

    // MARK: Device authorizations (RFC 8628)
    /// A new grant, waiting for the person to approve it in a browser.
    func createDeviceGrant(_ grant: NewDeviceGrant) async throws
    /// The unexpired grant waiting under this user code, for the verification page.
    func pendingDeviceGrant(userCode: String, now: Int64) async throws -> PendingDeviceGrant?
    /// Approves (with the identity the provider vouched for) or denies a grant still
    /// waiting; false when there is none under this code.
    func decideDeviceGrant(userCode: String, identity: DeviceIdentity?, now: Int64) async throws -> Bool
    /// One poll, atomically: too soon after the last one, still waiting, refused, expired,
    /// or approved — then spent, so a second poll with the same device code gets nothing.
    func pollDeviceGrant(deviceCodeHash: String, now: Int64) async throws -> DeviceGrantPoll

    // MARK: Lockouts (failed log-ins)
    /// One attempt counted against `key` in a fixed window, durably: unlike a rate limit's
    /// count, a lockout survives a restart, a crash and a failover (an attacker who can
    /// crash the server must not win back its guesses). The seconds to wait when over.
    func hitLockout(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64?
    /// Gives back an attempt that was not a failure.
    func releaseLockout(_ key: String, _ rule: RateLimit, now: Int64) async throws
    /// The terminal gave the sign-in up: a grant not yet spent can no longer be approved
    /// or polled for (an approval already made is dropped with it).
    func withdrawDeviceGrant(deviceCodeHash: String) async throws

    // MARK: Profiles and records
    func updateProfile(of userID: String, with fields: [String: FieldValue], maximumBytes: Int, now: Int64) async throws -> ProfileUpdate
    func putRecord(_ value: FieldValue, key: String, for userID: String, now: Int64) async throws
    func records(of userID: String) async throws -> [String: FieldValue]
    /// Adds `item` to the list under `key` (made if missing) unless it is there already,
    /// in one transaction that no other write to the record interleaves with; refuses a
    /// value that is not a list, or a list that would pass `maximumBytes` of JSON.
    func addRecordItem(_ item: String, key: String, for userID: String, maximumBytes: Int, now: Int64) async throws -> [String]
    /// Moves `keys` that `from` holds to `to` (its own value replaced), in one transaction.
    func moveRecords(_ keys: [String], from: String, to: String, now: Int64) async throws
    /// Adds the items of `from`'s lists under `keys` to `to`'s (as `addRecordItem` does,
    /// in order, none twice) and removes `from`'s, in one transaction.
    func mergeRecordLists(_ keys: [String], from: String, to: String, maximumBytes: Int, now: Int64) async throws

    // MARK: Children and invites
    func addChild(_ child: Child, by userID: String, now: Int64) async throws
    func children(of userID: String) async throws -> [Child]
    /// False when the child is not on the user's account.
    func createInvite(codeHash: String, childID: String, by userID: String, now: Int64, expiresAt: Int64, outbox: OutboxEntry?) async throws -> Bool
    /// Spends an unused, unexpired invite (one winner however many race) and shares its
    /// child; nil when there is no such invite, or its child is already on the user's
    /// account (the code is kept for whom it was meant).
    func redeemInvite(codeHash: String, by userID: String, now: Int64) async throws -> InviteAcceptance?
    /// The name of the child a live, unused invite shares when the user already tracks it.
    func childAlreadyTracked(inviteCodeHash: String, by userID: String, now: Int64) async throws -> String?

    // MARK: Idempotency
    /// Claims `id` for `operation` and the request's hash, or says what holds it: a row
    /// from before request hashes were kept matches any request of its operation.
    func claimIdempotency(_ id: String, operation: String, request: String, now: Int64, window: Int64, wait: Int64) async throws -> IdempotencyClaim
    func sealIdempotency(_ id: String, result: Data) async throws
    func releaseIdempotency(_ id: String) async throws

    // MARK: Rate limits
    /// Counts one event against `rule`; the seconds to wait when over the limit.
    func hitRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64?
    /// Counts one event against each key under one rule, at once; each key's wait.
    func hitRateLimits(_ keys: [String], _ rule: RateLimit, now: Int64) async throws -> [Int64?]
    /// `hitRateLimits` for a live session only (see `sessionIsLive`): nil, and nothing
    /// counted, when it is not.
    func hitRateLimits(_ keys: [String], _ rule: RateLimit, now: Int64, forLiveSession userID: String, family: String?) async throws -> [Int64?]?
    /// Counts `weight` at once against `rule` (a batch's events, or its bytes); nothing is
    /// counted when that would pass the limit, and the seconds to wait are returned.
    func hitRateLimit(_ key: String, _ rule: RateLimit, weight: Int, now: Int64) async throws -> Int64?
    /// The seconds to wait when `key` is over its limit, without counting.
    func checkRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws -> Int64?
    /// Gives back one event `hitRateLimit` counted in the current window.
    func releaseRateLimit(_ key: String, _ rule: RateLimit, now: Int64) async throws

    // MARK: Analytics
    /// Keeps each event whose id is new (one statement decides, so a batch sent twice at
    /// once is kept once), after deleting events received before the retention; how many
    /// were new.
    func storeEvents(_ events: [StoredEvent], deletingReceivedBefore cutoff: Int64) async throws -> Int
    /// Deletes a device run's events, and an account's when `userID` is given.
    func deleteEvents(anonymousID: String, userID: String?) async throws -> Int
    /// A flow's events from `since` (milliseconds, the devices' clocks): the funnel's reading.
    func funnelRows(flow: String, since: Int64) async throws -> [FunnelRow]

    // MARK: Readiness
    /// Answers when the store does (one trivial query): what `/readyz` asks.
    func ping() async throws

    // MARK: QA
    func outbox() async throws -> [OutboxEntry]
    /// Forgets every account, token, name, code and count; keeps the signing keys.
    func reset() async throws
    /// QA's shared settings, kept in the store so every instance on it shares them: the
    /// clock's offset in seconds (`clock`) and each injected fault (`fault:NAME`, with
    /// what it has left: fail-first's failures, slow-down's turn).
    func qaSettings() async throws -> [String: Int64]
    func setQAClockOffset(_ seconds: Int64) async throws
    /// Replaces the faults (`fault:NAME` to its starting count).
    func setQAFaults(_ faults: [String: Int64]) async throws
    /// Takes one from a setting's count, atomically; false when none was left.
    func countDownQASetting(_ name: String) async throws -> Bool
    /// Turns a setting between 0 and 1, atomically; whether it is 1 now.
    func flipQASetting(_ name: String) async throws -> Bool
}
