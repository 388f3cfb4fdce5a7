import HummingbirdBcrypt
import InputRules
import ServiceAPI

/// Accounts: anonymous guests with fictional names, and email + password accounts.
extension OnboardService {
    static let invalidCredentials = ServiceError(.unauthorized, "Invalid email or password.")
    public static let emailTaken = ServiceError(.conflict, "An account with this email already exists. Try logging in.")
    /// Verified against for unknown emails, so a miss costs what a wrong password costs.
    private static let decoyHash = Bcrypt.hash("decoy password for unknown emails", cost: 10)

    // MARK: Anonymous

    /// A guest's token lifetimes, chosen by the service from its flow's id, for the
    /// embedded mock and onboard-server alike: a built-in flow's `tokens` block; any other
    /// flow (a `--flow FILE` one included) gets `TokenPolicy.anonymous`, whose refresh
    /// token never expires, so a guest is never orphaned.
    public static func guestPolicy(forFlow flow: String?) -> TokenPolicy {
        flow.flatMap { builtinGuestPolicies[$0] } ?? .anonymous
    }

    /// Creates an anonymous account with a server-side `created_at` and offers three
    /// names no other user has been offered (BR-ONB-004).
    /// A repeat with the same key gets a new session for the same guest only with the
    /// device's `idempotencyProof` (a guest has no password to prove itself with).
    /// `flow`: the one the body named, bound with the key like the rest of the request.
    public func signInAnonymously(
        policy: TokenPolicy, flow: String? = nil, client: String = "local", idempotencyKey: String? = nil, idempotencyProof: String? = nil
    ) async throws -> AnonymousSignIn {
        let replay = { (first: AnonymousSignIn) async throws -> AnonymousSignIn in
            guard idempotencyProof != nil else {
                throw ServiceError(
                    .conflict,
                    "This guest was already made for this Idempotency-Key. Without the device's proof it is not signed in again: use a new key."
                )
            }
            return AnonymousSignIn(session: try await self.reissued(first.session, policy: policy), nameOptions: first.nameOptions)
        }
        return try await idempotent(
            idempotencyKey, operation: "sign_in_anonymously", request: ["proof": idempotencyProof ?? "", "flow": flow ?? ""], replay: replay
        ) {
            let now = clock.now()
            try await limit("sign-in", address: client, settings.signInPerAddress, now: now)
            let userID = Secrets.userID(forIdempotencyKey: idempotencyKey)
            // The user, its names and its refresh token: one commit.
            let refresh = newRefreshToken(for: userID, policy: policy)
            let draw = NameDraw(count: Self.nameOptionCount, drawsPlainPairs: plainPairs.worthDrawing())
            let names = try await store.createGuest(userID, at: now, names: draw, token: refresh.record)
            plainPairs.record(names)
            return AnonymousSignIn(session: try await session(refresh, createdAt: now, isAnonymous: true), nameOptions: names)
        }
    }

    /// Finalises the anonymous profile with one of the names offered to this user.
    public func chooseName(accessToken: String, name: String) async throws -> Profile {
        let (userID, _) = try await authenticate(accessToken)
        guard let row = try await store.chooseOfferedName(name, for: userID) else {
            throw ServiceError(.invalidInput, "Please pick one of the names offered to you.")
        }
        return Profile(row)
    }

    public func profile(accessToken: String) async throws -> Profile {
        let (userID, _) = try await authenticate(accessToken)
        return Profile(try await store.profile(of: userID))
    }

    // MARK: Email and password

    /// A new account. Passwords: at least 8 characters, at most 72 bytes (bcrypt's limit,
    /// refused rather than silently cut).
    public func register(
        name: String, email: String, password: String, policy: TokenPolicy, flow: String? = nil, client: String = "local",
        idempotencyKey: String? = nil, idempotencyProof: String? = nil
    ) async throws -> IssuedSession {
        try await idempotent(
            idempotencyKey, operation: "register",
            request: ["name": name, "email": email, "password": password, "proof": idempotencyProof ?? "", "flow": flow ?? ""],
            replay: { try await self.reissued($0, policy: policy) }
        ) {
            let now = clock.now()
            try await limit("sign-in", address: client, settings.signInPerAddress, now: now)
            let email = try Self.normalised(email)
            let name = name.trimmingWhitespace
            guard !name.isEmpty else { throw ServiceError(.invalidInput, "Please enter your name.") }
            // Shown on other people's screens (a shared baby): no terminal commands in it.
            guard !name.hasControlOrBidi else {
                throw ServiceError(.invalidInput, "Your name cannot hold control or text-direction characters.")
            }
            // Baby Basics: a name is 1 to 100 characters; the service holds the rule too.
            guard name.count <= 100 else { throw ServiceError(.invalidInput, "Your name can be at most 100 characters.") }
            let hash = try Self.hashPassword(password, cost: settings.bcryptCost)
            let userID = Secrets.userID(forIdempotencyKey: idempotencyKey)
            let refresh = newRefreshToken(for: userID, policy: policy)
            if try await store.createAccount(userID, at: now, email: email, passwordHash: hash, name: name, token: refresh.record) {
                return knownDevice(try await session(refresh, createdAt: now, isAnonymous: false))
            }
            // The same key again, its first answer lost (the server killed between the
            // commit and the stored result): the account this key made, if the password
            // is the one it was made with, gets a new session instead of "email taken".
            if let account = try await store.credentials(email: email), account.userID == userID,
                let stored = account.passwordHash, Bcrypt.verify(password, hash: stored)
            {
                return knownDevice(try await issue(userID: userID, createdAt: account.createdAt, isAnonymous: false, policy: policy))
            }
            throw Self.emailTaken
        }
    }

    /// Unknown email and wrong password fail alike ("Invalid email or password.").
    /// Purchases follow the person: a guest this device leaves for the account (its access
    /// token proves it) hands its entitlements over, in one transaction, once the
    /// password is right. Its other records (rucks) stay with it, unless the person said
    /// yes to bringing them (`bring`): each list's items are added to the account's in
    /// the same step, and the guest's list goes.
    public func login(
        email: String, password: String, policy: TokenPolicy, client: String = "local", guestAccessToken: String? = nil,
        deviceToken: String? = nil,
        bring: [String] = []
    ) async throws -> IssuedSession {
        guard bring.count <= 8 else { throw ServiceError(.invalidInput, "At most 8 records can be brought along.") }
        for key in bring { try Self.checkRecordKey(key) }
        let now = clock.now()
        try await limit("sign-in", address: client, settings.signInPerAddress, now: now)
        let email = (try? Self.normalised(email)) ?? email.lowercased()
        let account = try await store.credentials(email: email)
        // A device that signed in to this account before counts its own failures: a
        // stranger's guesses lock the account for strangers only.
        let device = account.flatMap { account in deviceToken.flatMap { deviceTokens.device(in: $0, for: account.userID) } }
        // Each attempt reserves one of the failures before its password is judged, in one
        // atomic step, and a right password gives it back: however many arrive at once,
        // on however many instances, at most the limit are ever checked per window, per
        // account for untrusted devices and per known device (ASVS 2.2.1).
        // Kept on disk: the email only as a hash (a sealed mock keeps no email in clear).
        let failures = device.map { "login-failures:device:\($0)" } ?? "login-failures:" + Secrets.hash("login-failures:" + email)
        if let wait = try await store.hitLockout(failures, settings.loginFailuresPerAccount, now: now) {
            record(
                .loginLocked, account: account?.userID ?? Self.logName(email: email), address: client,
                outcome: "refused for \(wait) s\(device == nil ? "" : " (a known device)")")
            throw Self.tooMany(wait)
        }
        let matches = Bcrypt.verify(password, hash: account?.passwordHash ?? Self.decoyHash)
        guard let account, account.passwordHash != nil, matches else {
            record(
                .loginFailed, account: account?.userID ?? Self.logName(email: email), address: client,
                outcome: "refused: wrong email or password")
            throw Self.invalidCredentials
        }
        try await store.releaseLockout(failures, settings.loginFailuresPerAccount, now: now)
        if let guestAccessToken, let guest = try? await authenticate(guestAccessToken), guest.isAnonymous, guest.userID != account.userID {
            try await store.moveRecords(Self.entitlements, from: guest.userID, to: account.userID, now: now)
            if !bring.isEmpty {
                try await store.mergeRecordLists(bring, from: guest.userID, to: account.userID, maximumBytes: Self.recordBytes, now: now)
            }
        }
        var session = try await issue(userID: account.userID, createdAt: account.createdAt, isAnonymous: false, policy: policy)
        guard device != nil else { return knownDevice(session) }
        session.deviceToken = deviceToken
        return session
    }

    /// Adds an email and password to an anonymous account; the user id stays the same,
    /// and the new session is no longer anonymous.
    public func linkEmail(
        accessToken: String, email: String, password: String, policy: TokenPolicy, idempotencyKey: String? = nil
    ) async throws -> IssuedSession {
        let (userID, _) = try await authenticate(accessToken)
        return try await idempotent(
            idempotencyKey, operation: "link_email", caller: userID, request: ["email": email, "password": password]
        ) {
            let email = try Self.normalised(email)
            let hash = try Self.hashPassword(password, cost: settings.bcryptCost)
            let createdAt: Int64
            let refresh = newRefreshToken(for: userID, policy: policy)
            switch try await store.linkEmail(to: userID, email: email, passwordHash: hash, token: refresh.record) {
            case .linked(let created): createdAt = created
            case .noSuchUser: throw ServiceError.sessionRejected
            case .alreadyNamed: throw ServiceError(.conflict, "This account already has an email.")
            case .emailTaken: throw Self.emailTaken
            }
            return knownDevice(try await session(refresh, createdAt: createdAt, isAnonymous: false))
        }
    }

    /// A session from a password sign-in, with a token that makes this device a known one.
    private func knownDevice(_ session: IssuedSession) -> IssuedSession {
        var session = session
        session.deviceToken = deviceTokens.make(for: session.userID)
        return session
    }

    /// Records that are purchases: they belong to the person, not to a guest left behind.
    static let entitlements = ["pro"]

    // MARK: Helpers

    static let commonPassword = ServiceError(
        .invalidInput, "This password is one of the most common, so it would be guessed first. Please choose another.")

    static func hashPassword(_ password: String, cost: Int) throws -> String {
        guard password.count >= 8 else {
            throw ServiceError(.invalidInput, "Password must be at least 8 characters.")
        }
        guard password.utf8.count <= 72 else {
            throw ServiceError(.invalidInput, "Password must be at most 72 bytes long.")
        }
        guard !InputRules.isCommonPassword(password) else {
            throw Self.commonPassword
        }
        return Bcrypt.hash(password, cost: UInt8(cost))
    }

    static func normalised(_ email: String) throws -> String {
        guard let email = InputRules.normalisedEmail(email) else {
            throw ServiceError(.invalidInput, "Please enter a valid email address.")
        }
        return email
    }
}
