import GRDB
import HummingbirdBcrypt
import InputRules
import ServiceAPI

/// Accounts: anonymous guests with fictional names, and email + password accounts.
extension OnboardService {
    static let invalidCredentials = ServiceError(.unauthorized, "Invalid email or password.")
    static let emailTaken = ServiceError(.conflict, "An account with this email already exists. Try logging in.")
    /// Verified against for unknown emails, so a miss costs what a wrong password costs.
    private static let decoyHash = Bcrypt.hash("decoy password for unknown emails", cost: 10)

    // MARK: Anonymous

    /// Creates an anonymous account with a server-side `created_at` and offers three
    /// names no other user has been offered (BR-ONB-004).
    public func signInAnonymously(policy: TokenPolicy, client: String = "local", idempotencyKey: String? = nil) async throws -> AnonymousSignIn {
        try await idempotent(idempotencyKey, operation: "sign_in_anonymously") {
            let now = clock.now()
            try limiter.hit("sign-in:\(client)", settings.signInPerAddress, now: now)
            let userID = Secrets.userID()
            let (session, names) = try await issue(userID: userID, createdAt: now, isAnonymous: true, policy: policy) { db in
                try db.execute(sql: "INSERT INTO users (id, created_at, is_anonymous) VALUES (?, ?, 1)", arguments: [userID, now])
                return try Self.reserveNames(for: userID, now: now, in: db)
            }
            return AnonymousSignIn(session: session, nameOptions: names)
        }
    }

    /// Finalises the anonymous profile with one of the names offered to this user.
    public func chooseName(accessToken: String, name: String) async throws -> Profile {
        let (userID, _) = try await authenticate(accessToken)
        return try await write { db in
            let offered = try String.fetchOne(
                db, sql: "SELECT name FROM name_offers WHERE name = ? AND user_id = ?", arguments: [name, userID])
            guard offered != nil else {
                throw ServiceError(.invalidInput, "Please pick one of the names offered to you.")
            }
            try db.execute(
                sql: "UPDATE users SET display_name = ?, onboarding_complete = 1 WHERE id = ?",
                arguments: [name, userID])
            return try Self.profile(of: userID, in: db)
        }
    }

    public func profile(accessToken: String) async throws -> Profile {
        let (userID, _) = try await authenticate(accessToken)
        return try await read { db in try Self.profile(of: userID, in: db) }
    }

    // MARK: Email and password

    /// A new account. Passwords: at least 8 characters, at most 72 bytes (bcrypt's limit,
    /// refused rather than silently cut).
    public func register(name: String, email: String, password: String, policy: TokenPolicy, client: String = "local", idempotencyKey: String? = nil) async throws -> IssuedSession {
        try await idempotent(idempotencyKey, operation: "register") {
            let now = clock.now()
            try limiter.hit("sign-in:\(client)", settings.signInPerAddress, now: now)
            let email = try Self.normalised(email)
            let name = name.trimmingWhitespace
            guard !name.isEmpty else { throw ServiceError(.invalidInput, "Please enter your name.") }
            // Baby Basics: a name is 1 to 100 characters; the service holds the rule too.
            guard name.count <= 100 else { throw ServiceError(.invalidInput, "Your name can be at most 100 characters.") }
            let hash = try Self.hashPassword(password, cost: settings.bcryptCost)
            let userID = try await write { db in
                let userID = Secrets.userID()
                let inserted = try String.fetchOne(
                    db,
                    sql: """
                        INSERT INTO users (id, created_at, is_anonymous, email, password_hash, name, display_name)
                        VALUES (?, ?, 0, ?, ?, ?, NULL) ON CONFLICT DO NOTHING RETURNING id
                        """,
                    arguments: [userID, now, email, hash, name])
                guard inserted != nil else { throw Self.emailTaken }
                return userID
            }
            return try await issue(userID: userID, createdAt: now, isAnonymous: false, policy: policy)
        }
    }

    /// Unknown email and wrong password fail alike ("Invalid email or password.").
    public func login(email: String, password: String, policy: TokenPolicy, client: String = "local") async throws -> IssuedSession {
        let now = clock.now()
        try limiter.hit("sign-in:\(client)", settings.signInPerAddress, now: now)
        let email = (try? Self.normalised(email)) ?? email.lowercased()
        try limiter.check("login-failures:\(email)", settings.loginFailuresPerAccount, now: now)
        let account = try await read { db -> (id: String, createdAt: Int64, hash: String?)? in
            try Row.fetchOne(db, sql: "SELECT id, created_at, password_hash FROM users WHERE email = ?", arguments: [email])
                .map { ($0["id"], $0["created_at"], $0["password_hash"]) }
        }
        let matches = Bcrypt.verify(password, hash: account?.hash ?? Self.decoyHash)
        guard let account, account.hash != nil, matches else {
            try? limiter.hit("login-failures:\(email)", settings.loginFailuresPerAccount, now: now)
            throw Self.invalidCredentials
        }
        return try await issue(userID: account.id, createdAt: account.createdAt, isAnonymous: false, policy: policy)
    }

    /// Adds an email and password to an anonymous account; the user id stays the same,
    /// and the new session is no longer anonymous.
    public func linkEmail(accessToken: String, email: String, password: String, policy: TokenPolicy, idempotencyKey: String? = nil) async throws -> IssuedSession {
        try await idempotent(idempotencyKey, operation: "link_email") {
            let (userID, _) = try await authenticate(accessToken)
            let email = try Self.normalised(email)
            let hash = try Self.hashPassword(password, cost: settings.bcryptCost)
            let createdAt = try await write { db -> Int64 in
                guard let row = try Row.fetchOne(db, sql: "SELECT created_at, is_anonymous FROM users WHERE id = ?", arguments: [userID])
                else { throw ServiceError.sessionRejected }
                guard row["is_anonymous"] as Bool else {
                    throw ServiceError(.conflict, "This account already has an email.")
                }
                let taken = try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE email = ?", arguments: [email]) ?? false
                guard !taken else { throw Self.emailTaken }
                try db.execute(
                    sql: "UPDATE users SET email = ?, password_hash = ?, is_anonymous = 0 WHERE id = ?",
                    arguments: [email, hash, userID])
                return row["created_at"]
            }
            return try await issue(userID: userID, createdAt: createdAt, isAnonymous: false, policy: policy)
        }
    }

    // MARK: Helpers

    static func hashPassword(_ password: String, cost: Int) throws -> String {
        guard password.count >= 8 else {
            throw ServiceError(.invalidInput, "Password must be at least 8 characters.")
        }
        guard password.utf8.count <= 72 else {
            throw ServiceError(.invalidInput, "Password must be at most 72 bytes long.")
        }
        return Bcrypt.hash(password, cost: UInt8(cost))
    }

    static func normalised(_ email: String) throws -> String {
        guard let email = InputRules.normalisedEmail(email) else {
            throw ServiceError(.invalidInput, "Please enter a valid email address.")
        }
        return email
    }

    static func profile(of userID: String, in db: Database) throws -> Profile {
        guard let row = try Row.fetchOne(db, sql: "SELECT display_name, name, email, phone, is_anonymous FROM users WHERE id = ?", arguments: [userID])
        else { throw ServiceError.sessionRejected }
        return Profile(
            userID: userID, displayName: row["display_name"] ?? row["name"], email: row["email"], phone: row["phone"],
            isAnonymous: row["is_anonymous"], fields: try fields(of: userID, in: db))
    }

    /// Reserves names service-wide: a name offered to one user is never offered to another.
    /// The offers share no word, so three offers read as three different names.
    static func reserveNames(for userID: String, now: Int64, in db: Database) throws -> [String] {
        var names: [String] = []
        var collisions = 0
        var usedAdjectives: Set<String> = [], usedNouns: Set<String> = []
        while names.count < nameOptionCount {
            let adjective = WordLibrary.adjectives.filter { !usedAdjectives.contains($0) }.randomElement()!
            let noun = WordLibrary.nouns.filter { !usedNouns.contains($0) }.randomElement()!
            var candidate = "\(adjective) \(noun)"
            // Plain pairs (1,600) run out after a few hundred users: once they collide, a
            // number keeps names unique without bound, and each sign-in cheap.
            if collisions >= 3 { candidate += " \(Int.random(in: 2...99_999))" }
            let inserted = try String.fetchOne(
                db,
                sql: "INSERT INTO name_offers (name, user_id, offered_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING name",
                arguments: [candidate, userID, now])
            if let inserted {
                names.append(inserted)
                usedAdjectives.insert(adjective)
                usedNouns.insert(noun)
            } else {
                collisions += 1
            }
        }
        return names
    }
}
