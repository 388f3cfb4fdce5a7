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
        guard settings.mockIdentityProvider else { throw SocialProvider.unavailable(provider) }
        let account = account.trimmingWhitespace
        // Lengths as the OpenAPI schema counts them (JSON Schema: code points), not as
        // Swift counts characters: "\r\n" is one Character and two code points.
        guard !account.isEmpty, account.unicodeScalars.count <= 254 else {
            throw ServiceError(.invalidInput, "Enter the account to continue with.")
        }
        guard !nonce.isEmpty, nonce.unicodeScalars.count <= 128 else { throw ServiceError(.invalidInput, "A sign-in needs a nonce.") }
        let email = try? Self.normalised(account)
        return try await identityProvider.issue(
            provider: provider, subject: Self.mockSubject(provider: provider, account: account), email: email, audience: audience,
            nonce: nonce,
            now: clock.now())
    }

    public func socialSignIn(
        provider: String, idToken: String, nonce: String, policy: TokenPolicy, flow: String? = nil, idempotencyKey: String? = nil,
        idempotencyProof: String? = nil
    ) async throws -> SignIn {
        try await idempotent(
            idempotencyKey, operation: "social_sign_in",
            request: ["provider": provider, "id_token": idToken, "nonce": nonce, "proof": idempotencyProof ?? "", "flow": flow ?? ""],
            replay: { SignIn(session: try await self.reissued($0.session, policy: policy), isNewUser: $0.isNewUser) }
        ) {
            let now = clock.now()
            let provider = try Self.knownProvider(provider)
            // No real provider is configured yet: the mock's tokens are the only kind,
            // and off --dev nobody may mint them.
            guard settings.mockIdentityProvider else { throw SocialProvider.unavailable(provider) }
            let claims = try await verifiedMockClaims(provider: provider, idToken: idToken, nonce: nonce, now: now)
            let refused = Self.unverified(provider)
            guard let tokenID = claims.jti else { throw refused }
            let subject = claims.sub
            let email = claims.email
            let refresh = newRefreshToken(for: Secrets.userID(), policy: policy)
            guard
                let user = try await store.socialUser(
                    tokenID: tokenID, tokenExpiry: claims.expiresAt, provider: provider,
                    subject: subject, email: email, now: now, token: refresh.record)
            else {  // accepted once: a replayed token is refused
                record(.socialTokenRefused, account: subject, outcome: "refused: \(provider) ID token used before")
                throw refused
            }
            let session = try await session(
                (refresh.token, refresh.record.granted(to: user.userID)), createdAt: user.createdAt, isAnonymous: false)
            return SignIn(session: session, isNewUser: user.isNew)
        }
    }

    /// The claims of the mock provider's ID token for `provider`, if it signed it for this
    /// app and `nonce` and it has not expired; refused (and recorded) otherwise.
    func verifiedMockClaims(provider: String, idToken: String, nonce: String, now: Int64) async throws -> IDTokenClaims {
        guard let claims = await identityProvider.verifiedClaims(idToken),
            claims.iss == MockIdentityProvider.issuer(provider),
            claims.aud.value.contains(MockIdentityProvider.audience),
            claims.expiresAt > now,
            !nonce.isEmpty, claims.nonce == nonce, claims.jti != nil
        else {
            record(.socialTokenRefused, outcome: "refused: \(provider) ID token not genuine, expired or for another nonce")
            throw Self.unverified(provider)
        }
        return claims
    }

    static func unverified(_ provider: String) -> ServiceError {
        ServiceError(.unauthorized, "Sign in with \(SocialProvider.displayName(provider)) could not be verified. Please try again.")
    }

    /// The mock provider's subject for an account: stable per provider and account, never
    /// the address itself.
    static func mockSubject(provider: String, account: String) -> String {
        String(Secrets.hash(provider + ":" + account.lowercased()).prefix(24))
    }

    /// Exactly as the OpenAPI document's enum names it (lower case).
    static func knownProvider(_ provider: String) throws -> String {
        guard socialProviders.contains(provider) else {
            throw ServiceError(.invalidInput, "Unknown sign-in provider '\(provider)'; use apple, google or facebook.")
        }
        return provider
    }
}
