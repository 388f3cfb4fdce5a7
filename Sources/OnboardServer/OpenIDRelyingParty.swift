import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import NIOCore
import OnboardService
import ServiceAPI
import Synchronization

/// The server's side of OpenID Connect's authorization code flow (Core §3.1) with PKCE
/// (RFC 7636): the provider's discovery document and keys, fetched and cached; the
/// address the browser is sent to; the code exchanged at the token endpoint; and the ID
/// token checked as Core §3.1.3.7 says before anyone is signed in.
final class OpenIDRelyingParty: Sendable {
    struct Discovery: Decodable, Sendable {
        var issuer: String
        var authorizationEndpoint: String
        var tokenEndpoint: String
        var jwksURI: String
        var tokenEndpointAuthMethodsSupported: [String]?

        enum CodingKeys: String, CodingKey {
            case issuer, authorizationEndpoint = "authorization_endpoint", tokenEndpoint = "token_endpoint", jwksURI = "jwks_uri"
            case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        }
    }

    /// Why a sign-in was refused, for the security log and the tests; the person reads
    /// only that it could not be verified.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// Only these signatures are accepted (RFC 8725 §3.1): never `none`, never a MAC
    /// keyed with something public.
    static let allowedAlgorithms: Set = ["RS256", "ES256"]
    /// Clocks disagree: an ID token issued up to a minute "in the future" is accepted.
    static let clockSkew: Double = 60
    /// An ID token issued longer ago than this is not a fresh sign-in.
    static let freshness: Double = 600

    let http: HTTPClient
    private let discoveries = Mutex<[String: (Discovery, fetchedAt: Date)]>([:])
    private let keySets = Mutex<[String: (JWTKeyCollection, ids: Set<String>, fetchedAt: Date)]>([:])

    init(http: HTTPClient = .shared) {
        self.http = http
    }

    /// The provider's discovery document (OpenID Connect Discovery §4), cached an hour; its
    /// `issuer` must be exactly the one configured (§4.3).
    func discovery(issuer: String) async throws -> Discovery {
        if let cached = discoveries.withLock({ $0[issuer] }), cached.fetchedAt.timeIntervalSinceNow > -3600 { return cached.0 }
        let document = try await getJSON(issuer + "/.well-known/openid-configuration", as: Discovery.self)
        guard document.issuer == issuer else { throw Refusal(description: "discovery names issuer \(document.issuer), not \(issuer)") }
        discoveries.withLock { $0[issuer] = (document, Date()) }
        return document
    }

    /// Where the browser goes to sign in: the authorization request (Core §3.1.2.1) with
    /// PKCE S256, `state`, and (OpenID Connect) `nonce`.
    func authorizationURL(
        _ provider: IdentityProvider, issuer: String, redirectURI: String, state: String, nonce: String, verifier: String
    ) async throws -> String {
        var endpoint = provider.oauth?.authorization ?? ""
        if provider.oauth == nil { endpoint = try await discovery(issuer: issuer).authorizationEndpoint }
        var query: [(String, String)] = [
            ("response_type", "code"), ("client_id", provider.clientID), ("redirect_uri", redirectURI),
            ("scope", provider.scopes.joined(separator: " ")), ("state", state),
            ("code_challenge", Self.challenge(for: verifier)), ("code_challenge_method", "S256"),
        ]
        if provider.oauth == nil { query.append(("nonce", nonce)) }
        if let mode = provider.responseMode { query.append(("response_mode", mode)) }
        return endpoint + (endpoint.contains("?") ? "&" : "?") + Self.formEncoded(query)
    }

    /// What the token endpoint answers: an ID token (OpenID Connect), an access token.
    struct Tokens: Decodable {
        var idToken: String?
        var accessToken: String?
        var error: String?
        enum CodingKeys: String, CodingKey { case idToken = "id_token", accessToken = "access_token", error }
    }

    /// The code exchanged at the token endpoint (Core §3.1.3), the client authenticated
    /// as the provider says it accepts: `client_secret_post`, else `client_secret_basic`.
    func exchange(_ provider: IdentityProvider, issuer: String, code: String, redirectURI: String, verifier: String) async throws -> Tokens
    {
        let document = provider.oauth == nil ? try await discovery(issuer: issuer) : nil
        var form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", verifier),
        ]
        var request = HTTPClientRequest(url: provider.oauth?.token ?? document?.tokenEndpoint ?? "")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        let secret = try await clientSecret(provider, issuer: issuer)
        let methods = document.map { $0.tokenEndpointAuthMethodsSupported ?? ["client_secret_basic"] } ?? ["client_secret_post"]
        if methods.contains("client_secret_post") {
            form += [("client_id", provider.clientID), ("client_secret", secret)]
        } else {
            // RFC 6749 §2.3.1: each half form-encoded before it is joined.
            let pair = Self.formComponent(provider.clientID) + ":" + Self.formComponent(secret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        }
        request.body = .bytes(ByteBuffer(string: Self.formEncoded(form)))
        let response = try await http.execute(request, timeout: .seconds(15))
        let body = try await response.body.collect(upTo: 256 * 1024)
        let tokens = try? JSONDecoder().decode(Tokens.self, from: Data(buffer: body))
        guard response.status == .ok, let tokens, tokens.idToken != nil || tokens.accessToken != nil else {
            throw Refusal(description: "the token endpoint answered \(response.status.code) \(tokens?.error ?? "without a token")")
        }
        return tokens
    }

    /// Who signed in: from the ID token (OpenID Connect, every check of
    /// `verifiedIdentity`), or from the user-info endpoint with the access token.
    func identity(_ tokens: Tokens, provider: IdentityProvider, issuer: String, nonce: String, now: Double) async throws -> DeviceIdentity {
        guard let endpoints = provider.oauth else {
            guard let idToken = tokens.idToken else { throw Refusal(description: "no ID token") }
            return try await verifiedIdentity(idToken, provider: provider, issuer: issuer, nonce: nonce, now: now)
        }
        guard let accessToken = tokens.accessToken else { throw Refusal(description: "no access token") }
        var request = HTTPClientRequest(url: endpoints.userInfo)
        request.headers.add(name: "Authorization", value: "Bearer " + accessToken)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await http.execute(request, timeout: .seconds(15))
        let body = try await response.body.collect(upTo: 256 * 1024)
        struct Person: Decodable { var id: String?; var sub: String?; var email: String? }
        guard response.status == .ok, let person = try? JSONDecoder().decode(Person.self, from: Data(buffer: body)),
            let subject = person.id ?? person.sub, !subject.isEmpty, subject.count <= 255
        else { throw Refusal(description: "the user-info endpoint answered \(response.status.code) with no one") }
        return DeviceIdentity(subject: subject, email: endpoints.emailIsVerified ? person.email : nil)
    }

    /// The client secret as this provider takes it: as configured, or signed afresh (Apple).
    func clientSecret(_ provider: IdentityProvider, issuer: String) async throws -> String {
        switch provider.clientSecret {
        case .fixed(let secret): return secret
        case .signed(let team, let key, let pem):
            return try await ClientSecretSigner.secret(
                teamID: team, keyID: key, privateKeyPEM: pem, clientID: provider.clientID, audience: issuer, now: Date())
        }
    }

    /// The identity an ID token vouches for, after every check of Core §3.1.3.7: a
    /// signature by the issuer's published key with an allowed algorithm, the issuer,
    /// this client as audience, unexpired, freshly issued, and the nonce this sign-in sent.
    func verifiedIdentity(
        _ token: String, provider: IdentityProvider, issuer: String, nonce: String, now: Double
    ) async throws -> DeviceIdentity {
        let header = try Self.header(of: token)
        guard let algorithm = header["alg"] as? String, Self.allowedAlgorithms.contains(algorithm) else {
            throw Refusal(description: "signed with \(header["alg"] ?? "nothing"), not RS256 or ES256")
        }
        let document = try await discovery(issuer: issuer)
        let claims = try await verifiedClaims(token, kid: header["kid"] as? String, jwksURI: document.jwksURI, issuer: issuer)
        guard claims.iss == issuer else { throw Refusal(description: "issued by \(claims.iss), not \(issuer)") }
        guard claims.aud.value.contains(provider.clientID) else {
            throw Refusal(description: "for audience \(claims.aud.value), not this client")
        }
        if claims.aud.value.count > 1, claims.azp != provider.clientID {
            throw Refusal(description: "several audiences and not authorised for this client")
        }
        guard claims.exp > now else { throw Refusal(description: "expired") }
        guard claims.iat <= now + Self.clockSkew, claims.iat > now - Self.freshness else {
            throw Refusal(description: "not issued just now")
        }
        guard let said = claims.nonce, !nonce.isEmpty, said == nonce else { throw Refusal(description: "for another sign-in (nonce)") }
        guard !claims.sub.isEmpty, claims.sub.count <= 255 else { throw Refusal(description: "no subject") }
        // An address the provider has not checked is not the person's to claim.
        let email = claims.emailVerified?.value == true ? claims.email : nil
        return DeviceIdentity(subject: claims.sub, email: email)
    }

    /// Checked against the issuer's keys; a `kid` it does not publish (the provider rotated
    /// its keys) fetches them again, once.
    private func verifiedClaims(_ token: String, kid: String?, jwksURI: String, issuer: String) async throws -> IDTokenClaims {
        var keys = try await keys(jwksURI, issuer: issuer, fresh: false)
        if let kid, !keys.ids.contains(kid) { keys = try await self.keys(jwksURI, issuer: issuer, fresh: true) }
        if let kid, !keys.ids.contains(kid) { throw Refusal(description: "signed with a key the issuer does not publish") }
        do {
            return try await keys.collection.verify(token, as: IDTokenClaims.self)
        } catch {
            throw Refusal(description: "signature not the issuer's (\(error))")
        }
    }

    private func keys(_ jwksURI: String, issuer: String, fresh: Bool) async throws -> (collection: JWTKeyCollection, ids: Set<String>) {
        if !fresh, let cached = keySets.withLock({ $0[issuer] }), cached.fetchedAt.timeIntervalSinceNow > -3600 {
            return (cached.0, cached.ids)
        }
        let jwks = try await getJSON(jwksURI, as: JWKS.self)
        let collection = JWTKeyCollection()
        var ids: Set<String> = []
        // Keys of a kind jwt-kit cannot use (or an encryption key) are skipped, not fatal.
        for key in jwks.keys where (try? await collection.add(jwk: key)) != nil {
            if let id = key.keyIdentifier?.string { ids.insert(id) }
        }
        keySets.withLock { $0[issuer] = (collection, ids, Date()) }
        return (collection, ids)
    }

    private func getJSON<Value: Decodable>(_ url: String, as type: Value.Type) async throws -> Value {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await http.execute(request, timeout: .seconds(15))
        let body = try await response.body.collect(upTo: 1024 * 1024)
        guard response.status == .ok, let value = try? JSONDecoder().decode(type, from: Data(buffer: body)) else {
            throw Refusal(description: "\(url) answered \(response.status.code) with no usable document")
        }
        return value
    }

    /// The JOSE header of a compact JWS, unverified (to check its `alg` first).
    static func header(of token: String) throws -> [String: Any] {
        guard let part = token.split(separator: ".", omittingEmptySubsequences: false).first, let data = Base64URL.decode(String(part)),
            let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw Refusal(description: "not a signed token") }
        return header
    }

    /// PKCE S256 (RFC 7636 §4.2): base64url(SHA-256(verifier)).
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Array(verifier.utf8))))
    }

    /// `application/x-www-form-urlencoded` (the WHATWG URL standard's set).
    static func formEncoded(_ pairs: [(String, String)]) -> String {
        pairs.map { formComponent($0) + "=" + formComponent($1) }.joined(separator: "&")
    }

    static func formComponent(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._* ")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(of: " ", with: "+")
    }
}
