import GRDB

/// Social sign-in through a mock identity provider, for Apple, Google and Facebook.
/// Its tokens read `mock-idp:PROVIDER:SUBJECT[:EMAIL]`; the subject `denied` is refused,
/// so QA can reach the failure. A real provider would verify a signed ID token here.
extension OnboardService {
    public static let socialProviders = ["apple", "google", "facebook"]

    public func socialSignIn(provider: String, idToken: String, policy: TokenPolicy) async throws -> SignIn {
        let now = clock.now()
        let provider = provider.lowercased()
        guard Self.socialProviders.contains(provider) else {
            throw ServiceError(.invalidInput, "Unknown sign-in provider '\(provider)'; use apple, google or facebook.")
        }
        let parts = idToken.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        let providerName = provider == "apple" ? "Apple" : provider.prefix(1).uppercased() + provider.dropFirst()
        guard parts.count >= 3, parts[0] == "mock-idp", parts[1] == provider, !parts[2].isEmpty, parts[2] != "denied" else {
            throw ServiceError(.unauthorized, "Sign in with \(providerName) could not be verified. Please try again.")
        }
        let subject = parts[2]
        let email = parts.count > 3 ? try? Self.normalised(parts[3]) : nil
        let user: (id: String, createdAt: Int64, isNew: Bool) = try await write { db in
            if let row = try Row.fetchOne(
                db, sql: "SELECT id, created_at FROM users WHERE auth_provider = ? AND provider_subject = ?", arguments: [provider, subject]) {
                return (row["id"], row["created_at"], false)
            }
            let userID = Secrets.userID()
            // The provider's email is kept unless another account already has it.
            let emailFree = try email.map { try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE email = ?", arguments: [$0]) == nil } ?? false
            try db.execute(
                sql: "INSERT INTO users (id, created_at, is_anonymous, email, auth_provider, provider_subject) VALUES (?, ?, 0, ?, ?, ?)",
                arguments: [userID, now, emailFree ? email : nil, provider, subject])
            return (userID, now, true)
        }
        let session = try await issue(userID: user.id, createdAt: user.createdAt, isAnonymous: false, policy: policy)
        return SignIn(session: session, isNewUser: user.isNew)
    }
}
