import Crypto
import Foundation
import JWTKit
import ServiceAPI
import Synchronization

/// The identity provider QA and demos sign in with instead of the real ones: it signs
/// ID tokens (ES256) with its own key, and the service checks them with the public half
/// only, as it would a real provider's published key. Nothing calls Apple, Google or
/// Facebook.
public final class MockIdentityProvider: Sendable {
    /// The audience tokens must be issued for (`SocialProvider.clientAudience`).
    public static let audience = SocialProvider.clientAudience
    /// How long an ID token may be used after it is issued (seconds).
    public static let tokenLifetime: Int64 = 600

    private let signer = JWTKeyCollection()
    private let verifier = JWTKeyCollection()
    private let privateKey: P256.Signing.PrivateKey
    private let loaded = Mutex(false)

    init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// The signer holds the private key; the verifier only the public one.
    private func prepare() async throws {
        guard !loaded.withLock({ $0 }) else { return }
        await signer.add(ecdsa: try ES256PrivateKey(backing: privateKey))
        await verifier.add(ecdsa: try ES256PublicKey(backing: privateKey.publicKey))
        loaded.withLock { $0 = true }
    }

    static func issuer(_ provider: String) -> String { "https://\(provider).idp.onboard.invalid" }

    /// An ID token for `subject` at `provider`, as the provider's consent screen would
    /// hand the app after Allow.
    func issue(provider: String, subject: String, email: String?, audience: String, nonce: String, now: Int64) async throws -> String {
        // As Apple's, Google's and Facebook's do: who (`sub`, `email`), for which app
        // (`aud`), until when, for which sign-in (`nonce`), and an id so it is accepted once.
        let claims = IDTokenClaims(
            issuer: Self.issuer(provider), subject: subject, audience: audience, issuedAt: now, lifetime: Self.tokenLifetime,
            id: Secrets.randomHex(bytes: 16), nonce: nonce, email: email)
        try await prepare()
        return try await signer.sign(claims)
    }

    /// The development OpenID provider's key id (`onboard-server --dev`'s `/dev-idp`).
    static let developmentKeyID = "dev-idp-1"
    private let developmentSigner = JWTKeyCollection()

    /// An ID token of the development OpenID provider (OpenID Connect Core §2): the same
    /// key, named by `kid` so a relying party finds it in the provider's JWKS.
    func developmentToken(_ claims: IDTokenClaims) async throws -> String {
        await developmentSigner.add(ecdsa: try ES256PrivateKey(backing: privateKey), kid: JWKIdentifier(string: Self.developmentKeyID))
        return try await developmentSigner.sign(claims, kid: JWKIdentifier(string: Self.developmentKeyID))
    }

    /// The public half as a JSON Web Key (RFC 7517, RFC 7518 §6.2): what the provider's
    /// `jwks_uri` publishes.
    var developmentJWK: [String: String] {
        let point = privateKey.publicKey.x963Representation.dropFirst()  // 0x04 || X || Y
        return [
            "kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": Self.developmentKeyID,
            "x": Base64URL.encode(point.prefix(32)), "y": Base64URL.encode(point.suffix(32)),
        ]
    }

    /// The claims of a token this provider signed; nil for a forgery or garbage.
    func verifiedClaims(_ token: String) async -> IDTokenClaims? {
        try? await prepare()
        return try? await verifier.verify(token, as: IDTokenClaims.self)
    }
}

/// The development OpenID provider's keys and tokens (onboard-server `--dev`'s
/// `/dev-idp`): the mock provider's key, published as a JWKS as a real provider's is.
extension OnboardService {
    public func developmentIDToken(_ claims: IDTokenClaims) async throws -> String {
        try await identityProvider.developmentToken(claims)
    }

    public var developmentJWKS: [String: [[String: String]]] { ["keys": [identityProvider.developmentJWK]] }

    /// A test persona's subject at the development provider: stable per address, never
    /// the address itself.
    public static func developmentSubject(email: String) -> String {
        String(Secrets.hash("dev-idp:" + email.lowercased()).prefix(24))
    }
}
