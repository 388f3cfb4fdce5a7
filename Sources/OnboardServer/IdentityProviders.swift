import Foundation
import OnboardService
import ServiceAPI
import Yams

/// The identity providers onboard-server brokers a social sign-in with, by the names
/// ABBY's buttons use: what the operator registered with each (DECISIONS 36). Google is
/// plain OpenID Connect; Apple is OpenID Connect with a client secret it must be sent as
/// a signed JWT, and its answer posted back (`form_post`); Facebook's web login is OAuth
/// 2.0 whose identity comes from its Graph API.
public struct IdentityProvider: Sendable, Equatable {
    /// The OpenID Connect issuer, exactly as its discovery document
    /// (`/.well-known/openid-configuration`) and its ID tokens say it; for a plain OAuth
    /// 2.0 provider, its authorization endpoint (a label: nothing is discovered).
    public var issuer: String
    public var clientID: String
    public var clientSecret: ClientSecret
    public var scopes: [String]
    /// `form_post` for Apple, which answers the callback with a POST (OAuth 2.0 Form
    /// Post Response Mode); nil for the query string.
    public var responseMode: String?
    /// A plain OAuth 2.0 provider (Facebook): its endpoints, and the identity read from
    /// `userInfo` with the access token instead of an ID token.
    public var oauth: OAuthEndpoints?
    /// The development provider served by this server (`--dev`): its issuer is
    /// `<the address the browser used>/dev-idp`, so `issuer` is a path.
    public var isDevelopment = false

    public enum ClientSecret: Sendable, Equatable {
        case fixed(String)
        /// Apple's: a JWT (ES256) the server signs with the key Apple issued (`.p8`),
        /// for the team and key ids Apple gave, good for five minutes.
        case signed(teamID: String, keyID: String, privateKeyPEM: String)
    }

    public struct OAuthEndpoints: Sendable, Equatable {
        public var authorization: String
        public var token: String
        /// Answers `{"id": …, "email": …}` for the access token (Graph's `/me?fields=id,email`).
        public var userInfo: String
        /// Whether the `email` it answers is one the provider has confirmed (Facebook
        /// answers only confirmed addresses); otherwise none is kept.
        public var emailIsVerified: Bool

        public init(authorization: String, token: String, userInfo: String, emailIsVerified: Bool) {
            (self.authorization, self.token, self.userInfo, self.emailIsVerified) = (authorization, token, userInfo, emailIsVerified)
        }
    }

    public init(
        issuer: String, clientID: String, clientSecret: ClientSecret, scopes: [String] = ["openid", "email"], responseMode: String? = nil,
        oauth: OAuthEndpoints? = nil
    ) {
        (self.issuer, self.clientID, self.clientSecret, self.scopes, self.responseMode, self.oauth) =
            (issuer, clientID, clientSecret, scopes, responseMode, oauth)
    }

    public init(issuer: String, clientID: String, clientSecret: String, scopes: [String] = ["openid", "email"], responseMode: String? = nil) {
        self.init(issuer: issuer, clientID: clientID, clientSecret: .fixed(clientSecret), scopes: scopes, responseMode: responseMode)
    }

    /// The development provider's one client (`/dev-idp`), public knowledge: it signs in
    /// test personas only.
    static let developmentClient = (id: "onboard-dev", secret: "onboard-dev-secret")

    /// `--dev` without a providers file: all three through the development provider.
    static var development: IdentityProvider {
        var provider = IdentityProvider(
            issuer: DevelopmentProvider.path, clientID: developmentClient.id, clientSecret: developmentClient.secret,
            scopes: ["openid", "email", "profile"])
        provider.isDevelopment = true
        return provider
    }

    /// The issuer for a request that arrived at `origin`.
    func issuer(at origin: String) -> String { isDevelopment ? origin + issuer : issuer }
}

/// A providers file (`onboard-server --identity-providers FILE`), YAML; README "Social
/// sign-in" has each provider's entry. A secret is never written in the file itself: a
/// file is copied, committed, shown on a screen.
public enum IdentityProvidersFile {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    static let keys: Set = [
        "issuer", "client_id", "client_secret_env", "client_secret_file", "scopes", "response_mode", "team_id", "key_id", "private_key_file",
        "authorization_endpoint", "token_endpoint", "userinfo_endpoint", "email_verified",
    ]

    public static func load(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: IdentityProvider] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Problem(description: "\(path): cannot be read") }
        guard let document = try? Yams.load(yaml: text) as? [String: Any] else {
            throw Problem(description: "\(path): not a YAML mapping of provider names (apple, google, facebook)")
        }
        return try providers(document, at: path, environment: environment)
    }

    /// The providers of a parsed table: this file's, or the `identity_providers` table of the
    /// server's configuration file.
    public static func providers(_ document: [String: Any], at path: String, environment: [String: String]) throws
        -> [String: IdentityProvider]
    {
        var providers: [String: IdentityProvider] = [:]
        for (name, value) in document {
            let place = "\(path): \(name)"
            guard OnboardService.socialProviders.contains(name) else {
                throw Problem(description: "\(place): unknown provider; use apple, google or facebook")
            }
            guard let entry = value as? [String: Any] else { throw Problem(description: "\(place): expected issuer, client_id and a client secret") }
            // A secret is never written in a settings file (ASVS 5.0 13.3.1): it comes from
            // the environment or a file of its own, which a secret store can provide.
            if entry["client_secret"] != nil {
                throw Problem(description: "\(place): a client secret is not written here; give client_secret_env or client_secret_file")
            }
            if let unknown = entry.keys.sorted().first(where: { !keys.contains($0) }) { throw Problem(description: "\(place): unknown key '\(unknown)'") }
            providers[name] = try provider(entry, at: place, environment: environment)
        }
        return providers
    }

    /// A secret's file, refused when others may read it (`SecretFile`).
    static func secretFile(_ file: String, _ place: String) throws -> String? {
        do {
            return try SecretFile.read(file)
        } catch let exposed as SecretFile.Exposed {
            throw Problem(description: "\(place): \(exposed)")
        }
    }

    static func provider(_ entry: [String: Any], at place: String, environment: [String: String]) throws -> IdentityProvider {
        func address(_ key: String) throws -> String {
            guard let text = entry[key] as? String, let url = URL(string: text), url.host != nil,
                  url.scheme == "https" || (url.scheme == "http" && Loopback.contains(url.host ?? ""))
            else { throw Problem(description: "\(place): \(key) must be an https:// address (http:// only on this machine, for tests)") }
            return text
        }
        guard let clientID = entry["client_id"] as? String, !clientID.isEmpty else { throw Problem(description: "\(place): client_id is missing") }
        let secret: IdentityProvider.ClientSecret
        if let variable = entry["client_secret_env"] as? String {
            guard let value = environment[variable], !value.isEmpty else { throw Problem(description: "\(place): $\(variable) is not set") }
            secret = .fixed(value)
        } else if let file = entry["client_secret_file"] as? String {
            guard let value = try secretFile(file, place) else { throw Problem(description: "\(place): \(file) cannot be read") }
            secret = .fixed(value.trimmingCharacters(in: .whitespacesAndNewlines))
        } else if let team = entry["team_id"] as? String, let key = entry["key_id"] as? String, let file = entry["private_key_file"] as? String {
            guard let pem = try secretFile(file, place) else { throw Problem(description: "\(place): \(file) cannot be read") }
            guard ClientSecretSigner.isUsable(pem) else { throw Problem(description: "\(place): \(file) is not an ES256 (P-256) private key in PEM") }
            secret = .signed(teamID: team, keyID: key, privateKeyPEM: pem)
        } else {
            throw Problem(description: "\(place): give client_secret_env, client_secret_file, or (Apple) team_id, key_id and private_key_file")
        }
        let mode = entry["response_mode"] as? String
        if let mode, mode != "form_post", mode != "query" { throw Problem(description: "\(place): response_mode is query or form_post") }
        if entry["authorization_endpoint"] != nil {
            // Plain OAuth 2.0 (Facebook): no discovery, the identity from its user-info endpoint.
            let endpoints = IdentityProvider.OAuthEndpoints(
                authorization: try address("authorization_endpoint"), token: try address("token_endpoint"),
                userInfo: try address("userinfo_endpoint"), emailIsVerified: entry["email_verified"] as? Bool ?? false)
            return IdentityProvider(
                issuer: endpoints.authorization, clientID: clientID, clientSecret: secret, scopes: entry["scopes"] as? [String] ?? ["email"],
                responseMode: mode == "query" ? nil : mode, oauth: endpoints)
        }
        let scopes = entry["scopes"] as? [String] ?? ["openid", "email"]
        guard scopes.contains("openid") else { throw Problem(description: "\(place): scopes must include openid") }
        return IdentityProvider(
            issuer: try address("issuer"), clientID: clientID, clientSecret: secret, scopes: scopes, responseMode: mode == "query" ? nil : mode)
    }
}
