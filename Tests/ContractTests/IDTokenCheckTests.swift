import Crypto
import Foundation
import Hummingbird
import JWTKit
@testable import OnboardServer
import OnboardService
import Synchronization
import Testing

/// Issue 34: the broker's checks of a provider's ID token (OpenID Connect Core §3.1.3.7),
/// each refusal on its own, against a provider on loopback that publishes its discovery
/// document and keys as a real one does. OWASP ASVS 5.0: 9.1.1 (signature), 9.1.2
/// (algorithm allow-list, never `none`), 9.1.3 (keys from the configured issuer only),
/// 9.2.1 (expiry), 10.5.1 (nonce: no replay), 10.5.3 (issuer exactly as configured),
/// 10.5.4 (audience).
@Suite struct IDTokenCheckTests {
    /// A provider with one ES256 key (`k1`), and a second (`k2`) it publishes once told
    /// to: a key rotation. Its discovery names the address it was reached at, unless
    /// told to name another issuer.
    final class Provider: Sendable {
        let server: RunningServer
        let key: P256.Signing.PrivateKey
        let rotated: P256.Signing.PrivateKey
        let switches: Switches
        var issuer: String { server.base }

        final class Switches: Sendable {
            let publishesRotated = Mutex(false)
            let impersonates = Mutex<String?>(nil)
        }

        init() async throws {
            let (key, rotated, switches) = (P256.Signing.PrivateKey(), P256.Signing.PrivateKey(), Switches())
            (self.key, self.rotated, self.switches) = (key, rotated, switches)
            server = try await RunningServer.run { onReady in
                let router = Router()
                router.get(".well-known/openid-configuration") { request, _ in
                    let origin = "http://" + (request.head.authority ?? "")
                    return Self.json([
                        "issuer": switches.impersonates.withLock { $0 } ?? origin, "authorization_endpoint": origin + "/authorize",
                        "token_endpoint": origin + "/token", "jwks_uri": origin + "/jwks",
                    ])
                }
                router.get("jwks") { _, _ in
                    var keys = [Self.jwk(key, kid: "k1")]
                    if switches.publishesRotated.withLock({ $0 }) { keys.append(Self.jwk(rotated, kid: "k2")) }
                    return Self.json(["keys": keys])
                }
                return Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { channel in await onReady(channel.localAddress?.port ?? 0) })
            }
        }

        static func jwk(_ key: P256.Signing.PrivateKey, kid: String) -> [String: String] {
            let point = key.publicKey.x963Representation.dropFirst()
            return [
                "kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": kid,
                "x": Base64URL.encode(point.prefix(32)), "y": Base64URL.encode(point.suffix(32)),
            ]
        }

        static func json(_ value: Any) -> Response {
            let data = (try? JSONSerialization.data(withJSONObject: value)) ?? Data()
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }

        /// An ID token signed with `k1` (or `k2`), claims as given.
        func token(_ claims: [String: Any], kid: String = "k1") async throws -> String {
            let header = Base64URL.encode(try JSONSerialization.data(withJSONObject: ["alg": "ES256", "typ": "JWT", "kid": kid]))
            let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
            let signingKey = kid == "k2" ? rotated : key
            let signature = try signingKey.signature(for: Data((header + "." + payload).utf8))
            return header + "." + payload + "." + Base64URL.encode(signature.rawRepresentation)
        }
    }

    static let now = Date().timeIntervalSince1970

    func claims(_ provider: Provider, _ changes: [String: Any?] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": provider.issuer, "sub": "g-1", "aud": "onboard-client", "exp": Self.now + 600, "iat": Self.now, "nonce": "n-1",
            "email": "ana@example.org", "email_verified": true,
        ]
        for (key, value) in changes { claims[key] = value }
        return claims
    }

    func check(_ token: String, _ provider: Provider, nonce: String = "n-1") async throws -> DeviceIdentity {
        let settings = IdentityProvider(issuer: provider.issuer, clientID: "onboard-client", clientSecret: "s")
        return try await OpenIDRelyingParty().verifiedIdentity(
            token, provider: settings, issuer: provider.issuer, nonce: nonce, now: Self.now)
    }

    func refused(
        _ token: String, _ provider: Provider, nonce: String = "n-1", sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String? {
        do {
            let identity = try await check(token, provider, nonce: nonce)
            Issue.record("accepted as \(identity)", sourceLocation: sourceLocation)
            return nil
        } catch let refusal as OpenIDRelyingParty.Refusal {
            return refusal.description
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test func aGenuineTokenGivesTheSubjectAndTheVerifiedEmail() async throws {
        let provider = try await Provider()
        defer { provider.server.stop() }
        #expect(
            try await check(try await provider.token(claims(provider)), provider)
                == DeviceIdentity(subject: "g-1", email: "ana@example.org"))
        let unverified = try await provider.token(claims(provider, ["email_verified": false]))
        #expect(try await check(unverified, provider).email == nil, "an address the provider has not checked is not claimed")
    }

    @Test func aForgedSignatureIsRefused() async throws {
        let provider = try await Provider()
        defer { provider.server.stop() }
        let token = try await provider.token(claims(provider))
        // The payload changed after signing: another subject.
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims(provider, ["sub": "someone-else"])))
        #expect(await refused(parts.joined(separator: "."), provider)?.contains("signature") == true)
        // Signed by a key the issuer never published, under its key id.
        let stranger = P256.Signing.PrivateKey()
        let signingInput = parts[0] + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims(provider)))
        let forged = signingInput + "." + Base64URL.encode(try stranger.signature(for: Data(signingInput.utf8)).rawRepresentation)
        #expect(await refused(forged, provider)?.contains("signature") == true)
    }

    @Test func noneAndAlgorithmsOffTheListAreRefused() async throws {
        let provider = try await Provider()
        defer { provider.server.stop() }
        let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims(provider)))
        let none = Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + payload + "."
        #expect(await refused(none, provider) == "signed with none, not RS256 or ES256")
        // HS256 keyed with the public key: the classic confusion (RFC 8725 §2.1).
        let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT","kid":"k1"}"#.utf8))
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data((header + "." + payload).utf8), using: SymmetricKey(data: provider.key.publicKey.x963Representation))
        #expect(
            await refused(header + "." + payload + "." + Base64URL.encode(Data(mac)), provider) == "signed with HS256, not RS256 or ES256")
    }

    @Test func anExpiredOrStaleTokenIsRefused() async throws {
        let provider = try await Provider()
        defer { provider.server.stop() }
        #expect(await refused(try await provider.token(claims(provider, ["exp": Self.now - 1])), provider) == "expired")
        let stale = try await provider.token(claims(provider, ["iat": Self.now - 3600, "exp": Self.now + 600]))
        #expect(await refused(stale, provider) == "not issued just now")
        let future = try await provider.token(claims(provider, ["iat": Self.now + 3600, "exp": Self.now + 4200]))
        #expect(await refused(future, provider) == "not issued just now")
    }

    @Test func anotherAudienceOrIssuerIsRefused() async throws {
        let provider = try await Provider()
        defer { provider.server.stop() }
        #expect(
            await refused(try await provider.token(claims(provider, ["aud": "someone-elses-app"])), provider)?.hasPrefix("for audience")
                == true)
        let shared = try await provider.token(claims(provider, ["aud": ["onboard-client", "other"], "azp": "other"]))
        #expect(await refused(shared, provider) == "several audiences and not authorised for this client")
        let elsewhere = try await provider.token(claims(provider, ["iss": "https://accounts.example.com"]))
        #expect(await refused(elsewhere, provider) == "issued by https://accounts.example.com, not \(provider.issuer)")
    }

    /// ASVS 5.0 10.5.3: metadata naming another issuer than the one configured is refused.
    @Test func aDiscoveryDocumentNamingAnotherIssuerIsRefused() async throws {
        let provider = try await Provider()
        defer { provider.server.stop() }
        provider.switches.impersonates.withLock { $0 = "https://accounts.google.com" }
        let token = try await provider.token(claims(provider))
        #expect(await refused(token, provider) == "discovery names issuer https://accounts.google.com, not \(provider.issuer)")
    }

    /// ASVS 5.0 10.5.1: a token for another sign-in (its nonce) is not this one's.
    @Test func aTokenReplayedIntoAnotherSignInIsRefused() async throws {
        let provider = try await Provider()
        defer { provider.server.stop() }
        let token = try await provider.token(claims(provider))
        _ = try await check(token, provider, nonce: "n-1")
        #expect(await refused(token, provider, nonce: "n-2") == "for another sign-in (nonce)")
        #expect(await refused(try await provider.token(claims(provider, ["nonce": nil])), provider) == "for another sign-in (nonce)")
    }

    /// A provider rotates its keys: a token under a new `kid` fetches the keys again.
    @Test func anUnknownKeyIdFetchesTheKeysAgainOnce() async throws {
        let provider = try await Provider()
        defer { provider.server.stop() }
        let party = OpenIDRelyingParty()
        let settings = IdentityProvider(issuer: provider.issuer, clientID: "onboard-client", clientSecret: "s")
        _ = try await party.verifiedIdentity(
            try await provider.token(claims(provider)), provider: settings, issuer: provider.issuer, nonce: "n-1", now: Self.now)
        let rotated = try await provider.token(claims(provider), kid: "k2")
        await #expect(throws: OpenIDRelyingParty.Refusal(description: "signed with a key the issuer does not publish")) {
            try await party.verifiedIdentity(rotated, provider: settings, issuer: provider.issuer, nonce: "n-1", now: Self.now)
        }
        provider.switches.publishesRotated.withLock { $0 = true }
        let identity = try await party.verifiedIdentity(rotated, provider: settings, issuer: provider.issuer, nonce: "n-1", now: Self.now)
        #expect(identity.subject == "g-1")
    }
}
