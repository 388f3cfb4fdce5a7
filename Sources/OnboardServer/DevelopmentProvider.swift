import Crypto
import Foundation
import HTMLText
import Hummingbird
import InputRules
import OnboardService
import ServiceAPI

/// `onboard-server --dev`'s OpenID provider, for offline work and QA: discovery, a JWKS,
/// the authorization endpoint (PKCE S256 required) with a page of test personas, and the
/// token endpoint, as OpenID Connect Core and Discovery say — so the broker talks to it
/// exactly as to Google, and a third-party client library can sign in with it too. Its
/// issuer is the address the request came to, plus `/dev-idp`. Only in `--dev`.
struct DevelopmentProvider {
    static let path = "/dev-idp"
    /// The personas its sign-in page offers; any other address can be typed.
    static let personas = [("Ana Example", "ana@example.org"), ("Bo Tester", "bo@example.org"), ("Chen Demo", "chen@example.org")]
    /// An authorization code is good for a minute (RFC 6749 §4.1.2: short-lived).
    static let codeLifetime: Int64 = 60
    static let tokenLifetime: Int64 = 600

    let service: OnboardService
    let origin: @Sendable (Request) -> String?

    /// What an authorization code carries, sealed: the request it answers and who signed in.
    struct Grant: Codable {
        var clientID: String
        var redirectURI: String
        var challenge: String
        var nonce: String?
        var subject: String
        var email: String
        var name: String
        var expiresAt: Int64
    }

    /// The authorization request (Core §3.1.2.1) as the page carries it along.
    struct AuthorizationRequest: Codable {
        var responseType: String?
        var clientID: String?
        var redirectURI: String?
        var scope: String?
        var state: String?
        var nonce: String?
        var codeChallenge: String?
        var codeChallengeMethod: String?
        var responseMode: String?
        var persona: String?
        var email: String?
        var decision: String?

        enum CodingKeys: String, CodingKey {
            case responseType = "response_type", clientID = "client_id", redirectURI = "redirect_uri", scope, state, nonce
            case codeChallenge = "code_challenge", codeChallengeMethod = "code_challenge_method", responseMode = "response_mode"
            case persona, email, decision
        }
    }

    func register(on router: Router<APIContext>) {
        let idp = router.group(RouterPath(String(Self.path.dropFirst())))
        idp.get(".well-known/openid-configuration") { request, _ in
            guard let issuer = issuer(request) else { throw ServiceError(.invalidInput, "The request names no usable host.") }
            return Self.json([
                "issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
                "jwks_uri": issuer + "/jwks", "response_types_supported": ["code"], "response_modes_supported": ["query", "form_post"],
                "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["ES256"],
                "scopes_supported": ["openid", "email", "profile"], "grant_types_supported": ["authorization_code"],
                "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
                "code_challenge_methods_supported": ["S256"],
                "claims_supported": ["sub", "iss", "aud", "exp", "iat", "nonce", "email", "email_verified", "name"],
            ])
        }
        idp.get("jwks") { _, _ in Self.json(service.developmentJWKS) }
        idp.get("authorize") { request, _ in
            let asked = HTMLPage.query(AuthorizationRequest.self, request, empty: AuthorizationRequest())
            if let problem = Self.problem(with: asked, issuer: issuer(request)) { return problem }
            return HTMLPage.response(Self.signInPage(asked), title: "Development sign-in")
        }
        idp.post("authorize") { request, _ in
            let asked = try await HTMLPage.form(AuthorizationRequest.self, request)
            if let problem = Self.problem(with: asked, issuer: issuer(request)) { return problem }
            let redirect = asked.redirectURI ?? ""
            guard asked.decision != "deny" else {
                return Self.answer(to: redirect, ["error": "access_denied", "state": asked.state], mode: asked.responseMode)
            }
            let typed = (asked.email ?? "").trimmingCharacters(in: .whitespaces)
            guard let email = InputRules.normalisedEmail(typed.isEmpty ? asked.persona ?? "" : typed), email.count <= 254 else {
                return HTMLPage.response(Self.signInPage(asked, error: "Choose a persona, or type an email address."), status: .badRequest)
            }
            let name = Self.personas.first { $0.1 == email }?.0 ?? String(email.prefix { $0 != "@" })
            let grant = Grant(
                clientID: asked.clientID ?? "", redirectURI: redirect, challenge: asked.codeChallenge ?? "", nonce: asked.nonce,
                subject: OnboardService.developmentSubject(email: email), email: email, name: name,
                expiresAt: Self.now() + Self.codeLifetime)
            let code = try service.sealForBrowser(grant, purpose: "dev-idp code")
            return Self.answer(to: redirect, ["code": code, "state": asked.state], mode: asked.responseMode)
        }
        idp.post("token") { request, _ in
            try await token(request)
        }
    }

    private func issuer(_ request: Request) -> String? { origin(request).map { $0 + Self.path } }

    /// A provider keeps the world's time, not the service's (which QA may have moved).
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    /// The token endpoint (Core §3.1.3): the code, its client and its PKCE verifier
    /// checked, then the ID token. Errors as RFC 6749 §5.2 words them.
    private func token(_ request: Request) async throws -> Response {
        struct TokenRequest: Decodable {
            var grantType: String?
            var code: String?
            var redirectURI: String?
            var clientID: String?
            var clientSecret: String?
            var codeVerifier: String?
            enum CodingKeys: String, CodingKey {
                case grantType = "grant_type", code, redirectURI = "redirect_uri", clientID = "client_id", clientSecret = "client_secret"
                case codeVerifier = "code_verifier"
            }
        }
        let asked = try await HTMLPage.form(TokenRequest.self, request)
        let basic = Self.basicCredentials(request)
        let client = (id: basic?.id ?? asked.clientID, secret: basic?.secret ?? asked.clientSecret)
        guard client.id == IdentityProvider.developmentClient.id, client.secret == IdentityProvider.developmentClient.secret else {
            return Self.oauthError("invalid_client", status: .unauthorized)
        }
        guard asked.grantType == "authorization_code" else { return Self.oauthError("unsupported_grant_type") }
        guard let sealed = asked.code, let grant = service.unsealFromBrowser(sealed, as: Grant.self, purpose: "dev-idp code"),
            grant.expiresAt > Self.now(), grant.clientID == client.id, grant.redirectURI == asked.redirectURI,
            let verifier = asked.codeVerifier, OpenIDRelyingParty.challenge(for: verifier) == grant.challenge,
            let issuer = issuer(request)
        else { return Self.oauthError("invalid_grant") }
        let now = Self.now()
        let idToken = try await service.developmentIDToken(
            IDTokenClaims(
                issuer: issuer, subject: grant.subject, audience: grant.clientID, issuedAt: now, lifetime: Self.tokenLifetime,
                nonce: grant.nonce, email: grant.email, emailVerified: true, name: grant.name))
        return Self.json([
            "access_token": "dev_" + UUID().uuidString, "token_type": "Bearer", "expires_in": Self.tokenLifetime, "id_token": idToken,
        ])
    }

    /// Whatever makes the request unanswerable by redirect (RFC 6749 §4.1.2.1: a wrong
    /// client or redirect address is never redirected to) or refused as it stands.
    static func problem(with asked: AuthorizationRequest, issuer: String?) -> Response? {
        guard asked.clientID == IdentityProvider.developmentClient.id else {
            return HTMLPage.response(
                "<h1>Unknown application</h1><p>This sign-in was not asked for by a known application.</p>", status: .badRequest)
        }
        guard let redirect = asked.redirectURI, let issuer, Self.isRegistered(redirect: redirect, issuer: issuer) else {
            return HTMLPage.response(
                "<h1>Wrong return address</h1><p>The application's return address is not registered.</p>", status: .badRequest)
        }
        guard asked.responseType == "code", (asked.scope ?? "").split(separator: " ").contains("openid") else {
            return answer(to: redirect, ["error": "unsupported_response_type", "state": asked.state], mode: asked.responseMode)
        }
        // PKCE is required, and only its S256 method (RFC 7636 §4.2; OAuth 2.1).
        guard asked.codeChallengeMethod == "S256", let challenge = asked.codeChallenge, (43...128).contains(challenge.count) else {
            return answer(
                to: redirect, ["error": "invalid_request", "error_description": "PKCE with S256 is required", "state": asked.state],
                mode: asked.responseMode)
        }
        return nil
    }

    /// The development client's return addresses: the broker's callback on this server,
    /// exactly, or any port on this machine's loopback (RFC 8252 §7.3, for a client under
    /// test). Read by characters, not by a URL parser a browser may disagree with
    /// (`http://evil.example\@127.0.0.1/cb` is 127.0.0.1 to Foundation, evil.example to
    /// Chromium): only `http://HOST[:PORT]/PATH` of plain characters, no user info,
    /// backslash, query or fragment (ASVS 10.4.1).
    static func isRegistered(redirect: String, issuer: String) -> Bool {
        if redirect == String(issuer.dropLast(path.count)) + "/device/callback" { return true }
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/:[]")
        guard redirect.hasPrefix("http://"), redirect.allSatisfy(plain.contains) else { return false }
        let rest = redirect.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        let host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[...close]
            let port = authority[authority.index(after: close)...]
            guard port.isEmpty || (port.hasPrefix(":") && port.dropFirst().allSatisfy(\.isNumber) && port.count > 1) else { return false }
        } else {
            let pieces = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count <= 2, pieces.count == 1 || (!pieces[1].isEmpty && pieces[1].allSatisfy(\.isNumber)) else { return false }
            host = pieces[0]
        }
        return Loopback.contains(String(host))
    }

    /// The answer goes back to the client: in the query, or posted (form_post).
    static func answer(to redirect: String, _ parameters: [String: String?], mode: String?) -> Response {
        let pairs = parameters.compactMap { key, value in value.map { (key, $0) } }.sorted { $0.0 < $1.0 }
        guard mode == "form_post" else {
            return HTMLPage.redirect(to: redirect + (redirect.contains("?") ? "&" : "?") + OpenIDRelyingParty.formEncoded(pairs))
        }
        // A form posted onwards needs the user's press here: no script runs on this page.
        let fields = pairs.map { "<input type=\"hidden\" name=\"\(HTMLText.escaped($0.0))\" value=\"\(HTMLText.escaped($0.1))\">" }.joined()
        var response = HTMLPage.response(
            "<h1>Continue</h1><form method=\"post\" action=\"\(HTMLText.escaped(redirect))\">\(fields)<button type=\"submit\">Continue</button></form>",
            title: "Development sign-in")
        // The origin only: a registered address is checked, but a path's characters have
        // no place in a policy header.
        let origin = HTMLPage.origin(of: redirect) ?? "'none'"
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'unsafe-inline'; form-action \(origin); frame-ancestors 'none'"
        return response
    }

    static func signInPage(_ asked: AuthorizationRequest, error: String? = nil) -> String {
        let carried = [
            ("response_type", asked.responseType), ("client_id", asked.clientID), ("redirect_uri", asked.redirectURI),
            ("scope", asked.scope),
            ("state", asked.state), ("nonce", asked.nonce), ("code_challenge", asked.codeChallenge),
            ("code_challenge_method", asked.codeChallengeMethod), ("response_mode", asked.responseMode),
        ].compactMap { name, value in value.map { "<input type=\"hidden\" name=\"\(name)\" value=\"\(HTMLText.escaped($0))\">" } }.joined(
            separator: "\n")
        let personas = personas.map { name, email in
            "<button type=\"submit\" name=\"persona\" value=\"\(HTMLText.escaped(email))\">\(HTMLText.escaped(name)) (\(HTMLText.escaped(email)))</button><br>"
        }.joined(separator: "\n")
        return """
            <h1>Development sign-in</h1>
            <p class="note">onboard-server's development provider: no real account is asked for. Choose who to sign in as.</p>
            \(error.map { "<p class=\"error\" role=\"alert\">\(HTMLText.escaped($0))</p>" } ?? "")
            <form method="post" action="\(path)/authorize">
            \(carried)
            \(personas)
            <label for="email">Or another email address</label>
            <input id="email" name="email" type="email" autocomplete="off">
            <button type="submit" name="decision" value="allow">Sign In</button>
            <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
            </form>
            """
    }

    static func basicCredentials(_ request: Request) -> (id: String, secret: String)? {
        guard let header = request.headers[.authorization], header.hasPrefix("Basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6))), let pair = String(data: data, encoding: .utf8),
            let colon = pair.firstIndex(of: ":")
        else { return nil }
        let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
        return (decode(pair[..<colon]), decode(pair[pair.index(after: colon)...]))
    }

    static func json(_ value: Any) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func oauthError(_ code: String, status: HTTPResponse.Status = .badRequest) -> Response {
        var response = json(["error": code])
        response.status = status
        return response
    }
}
