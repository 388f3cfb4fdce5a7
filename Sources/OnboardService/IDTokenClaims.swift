import Foundation
import JWTKit

/// What an ID token says (OpenID Connect Core §2), as every party here writes and reads
/// it: the mock providers and the development provider issue these claims, and the
/// broker reads any provider's. Each reader checks the claims itself, where each refusal
/// can be told apart (`verify` checks nothing but the signature JWTKit checked).
public struct IDTokenClaims: JWTPayload, Equatable {
    public var iss: String
    public var sub: String
    public var aud: AudienceClaim
    /// Seconds since 1970, as a number whole or not (providers write both).
    public var exp: Double
    public var iat: Double
    /// The token's own id: the service accepts a mock provider's token once.
    public var jti: String?
    public var nonce: String?
    /// The party the token was issued to, when it names several audiences.
    public var azp: String?
    public var email: String?
    public var emailVerified: Verified?
    public var name: String?

    enum CodingKeys: String, CodingKey { case iss, sub, aud, exp, iat, jti, nonce, azp, email, emailVerified = "email_verified", name }

    /// `true`, or `"true"` as some providers write it.
    public struct Verified: Codable, Sendable, Equatable {
        public var value: Bool

        public init(_ value: Bool) {
            self.value = value
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            value = (try? container.decode(Bool.self)) ?? ((try? container.decode(String.self)) == "true")
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    public init(
        issuer: String, subject: String, audience: String, issuedAt: Int64, lifetime: Int64, id: String? = nil, nonce: String?,
        email: String?, emailVerified: Bool? = nil, name: String? = nil
    ) {
        iss = issuer
        sub = subject
        aud = AudienceClaim(value: audience)
        iat = Double(issuedAt)
        exp = Double(issuedAt + lifetime)
        jti = id
        self.nonce = nonce
        self.email = email
        self.emailVerified = emailVerified.map(Verified.init)
        self.name = name
    }

    /// When it expires, in whole seconds.
    public var expiresAt: Int64 { Int64(exp) }

    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
