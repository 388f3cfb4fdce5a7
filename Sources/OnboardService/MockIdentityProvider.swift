import Crypto
import Foundation
import JWTKit
import ServiceAPI
import Synchronization

/// What a mock provider's ID token says, as Apple's, Google's and Facebook's do: who
/// (`sub`, `email`), for which app (`aud`), until when, for which sign-in (`nonce`), and a
/// unique id so it is accepted once.
struct IdentityClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var jti: IDClaim
    var nonce: String
    var email: String?

    /// Expiry, audience and replay are checked by the service against its own clock
    /// and records, where each failure can be told apart in tests.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The identity provider QA and demos sign in with instead of the real ones: it signs
/// ID tokens (ES256) with its own key, and the service checks them with the public half
/// only, as it would a real provider's published key. Nothing calls Apple, Google or
/// Facebook.
public final class MockIdentityProvider: Sendable {
    /// The audience tokens must be issued for: the client id Onboard registers with
    /// each provider.
    public static let audience = "org.onboard.client"
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
        let claims = IdentityClaims(
            iss: IssuerClaim(value: Self.issuer(provider)), sub: SubjectClaim(value: subject),
            aud: AudienceClaim(value: audience), exp: ExpirationClaim(value: Date(timeIntervalSince1970: TimeInterval(now + Self.tokenLifetime))),
            iat: IssuedAtClaim(value: Date(timeIntervalSince1970: TimeInterval(now))),
            jti: IDClaim(value: Secrets.randomHex(bytes: 16)), nonce: nonce, email: email)
        try await prepare()
        return try await signer.sign(claims)
    }

    /// The claims of a token this provider signed; nil for a forgery or garbage.
    func verifiedClaims(_ token: String) async -> IdentityClaims? {
        try? await prepare()
        return try? await verifier.verify(token, as: IdentityClaims.self)
    }
}
