import Crypto
import Foundation
import JWTKit

/// Apple's client secret (Sign in with Apple, "Creating a client secret"): a JWT signed
/// ES256 with the private key Apple issued, naming the team (`iss`), the service id
/// (`sub`), Apple as audience, and a short life. Made afresh for each token request.
enum ClientSecretSigner {
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static let lifetime: TimeInterval = 300

    static func isUsable(_ pem: String) -> Bool {
        (try? ES256PrivateKey(pem: pem)) != nil
    }

    /// `audience`: the issuer (Apple's is `https://appleid.apple.com`, the audience it asks for).
    static func secret(
        teamID: String, keyID: String, privateKeyPEM: String, clientID: String, audience: String, now: Date
    ) async throws -> String {
        // Whole seconds: NumericDate as Apple (and Authlib) read it.
        let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: privateKeyPEM), kid: JWKIdentifier(string: keyID))
        let claims = Claims(
            iss: IssuerClaim(value: teamID), sub: SubjectClaim(value: clientID), aud: AudienceClaim(value: audience),
            iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: now.addingTimeInterval(lifetime)))
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }
}
