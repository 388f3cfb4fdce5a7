import GRDB
import InputRules
import ServiceAPI

/// Social sign-in for Apple, Google and Facebook through the mock identity provider: the
/// app gets a signed ID token from the provider's consent screen and hands it over with
/// the nonce it made; the service accepts it only if the provider signed it, for this
/// app, unexpired, for this nonce, and never before.
extension OnboardService {
    public static let socialProviders = ["apple", "google", "facebook"]

    /// The mock provider's side: an ID token for the account the user allowed.
    public func mockIdentityToken(provider: String, account: String, audience: String, nonce: String) async throws -> String {
        let provider = try Self.knownProvider(provider)
        let account = account.trimmingWhitespace
        guard !account.isEmpty, account.count <= 254 else {
            throw ServiceError(.invalidInput, "Enter the account to continue with.")
        }
        guard !nonce.isEmpty, nonce.count <= 128 else { throw ServiceError(.invalidInput, "A sign-in needs a nonce.") }
        let email = try? Self.normalised(account)
        // The subject is stable per provider and account, never the address itself.
        let subject = Secrets.hash(provider + ":" + account.lowercased()).prefix(24)
        return try await identityProvider.issue(
            provider: provider, subject: String(subject), email: email, audience: audience, nonce: nonce, now: clock.now())
    }

    public func socialSignIn(provider: String, idToken: String, nonce: String, policy: TokenPolicy, idempotencyKey: String? = nil) async throws -> SignIn {
        try await idempotent(idempotencyKey, operation: "social_sign_in") {
            let now = clock.now()
            let provider = try Self.knownProvider(provider)
            let providerName = provider == "apple" ? "Apple" : provider.prefix(1).uppercased() + provider.dropFirst()
            let refused = ServiceError(.unauthorized, "Sign in with \(providerName) could not be verified. Please try again.")
            guard let claims = await identityProvider.verifiedClaims(idToken),
                  claims.iss.value == MockIdentityProvider.issuer(provider),
                  claims.aud.value.contains(MockIdentityProvider.audience),
                  Int64(claims.exp.value.timeIntervalSince1970) > now,
                  !nonce.isEmpty, claims.nonce == nonce
            else { throw refused }
            let subject = claims.sub.value
            let email = claims.email
            let user: (id: String, createdAt: Int64, isNew: Bool) = try await write { db in
                // Accepted once: a replayed token (a stolen one, or a retried request) is refused.
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM used_id_tokens WHERE token_id = ?", arguments: [claims.jti.value]) == nil
                else { throw refused }
                try db.execute(sql: "DELETE FROM used_id_tokens WHERE expires_at < ?", arguments: [now])
                try db.execute(
                    sql: "INSERT INTO used_id_tokens (token_id, expires_at) VALUES (?, ?)",
                    arguments: [claims.jti.value, Int64(claims.exp.value.timeIntervalSince1970)])
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

    private static func knownProvider(_ provider: String) throws -> String {
        let provider = provider.lowercased()
        guard socialProviders.contains(provider) else {
            throw ServiceError(.invalidInput, "Unknown sign-in provider '\(provider)'; use apple, google or facebook.")
        }
        return provider
    }
}
