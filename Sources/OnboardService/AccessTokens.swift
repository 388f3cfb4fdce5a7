import Foundation
import JWTKit
import ServiceAPI
import Synchronization

/// What a signed access token says: who, which session (the refresh family it came
/// with; absent in tokens from before it was kept), whether anonymous, until when.
struct AccessClaims: JWTPayload {
    var sub: SubjectClaim
    var fid: String?
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var isAnonymous: BoolClaim

    enum CodingKeys: String, CodingKey {
        case sub, fid, exp, iat
        case isAnonymous = "is_anonymous"
    }

    /// Expiry is checked against the service's clock (which QA can move), not here.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Signs and verifies access tokens (HS256) with the service's own secret, kept in its
/// database so tokens survive restarts and two processes sharing the file agree.
final class AccessTokens: Sendable {
    private let keys = JWTKeyCollection()
    private let secret: [UInt8]
    private let loaded = Mutex(false)

    init(secret: [UInt8]) {
        self.secret = secret
    }

    private func prepared() async -> JWTKeyCollection {
        if !loaded.withLock({ $0 }) {
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            loaded.withLock { $0 = true }
        }
        return keys
    }

    func sign(userID: String, family: String?, isAnonymous: Bool, issuedAt: Int64, expiresAt: Int64) async throws -> String {
        let claims = AccessClaims(
            sub: SubjectClaim(value: userID),
            fid: family,
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: TimeInterval(expiresAt))),
            iat: IssuedAtClaim(value: Date(timeIntervalSince1970: TimeInterval(issuedAt))),
            isAnonymous: BoolClaim(value: isAnonymous))
        return try await prepared().sign(claims)
    }

    /// The claims of a genuine, unexpired token; otherwise `unauthorized`.
    func verify(_ token: String, now: Int64) async throws -> AccessClaims {
        let claims: AccessClaims
        do {
            claims = try await prepared().verify(token, as: AccessClaims.self)
        } catch {
            throw ServiceError.sessionRejected
        }
        guard Int64(claims.exp.value.timeIntervalSince1970) > now else { throw ServiceError.sessionRejected }
        return claims
    }
}
