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

    public init(
        issuer: String, clientID: String, clientSecret: String, scopes: [String] = ["openid", "email"], responseMode: String? = nil
    ) {
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

/// A providers file (`onboard-server --identity-providers FILE`), YAML; docs/operators.md "Social
/// sign-in" has each provider's entry. A secret is never written in the file itself: a
/// file is copied, committed, shown on a screen.
public enum IdentityProvidersFile {
    /// Every mistake in the providers, each at the line and column it was written.
    public struct Problem: Error, CustomStringConvertible {
        public var lines: [String]
        public var description: String { lines.joined(separator: "\n") }
    }

    static let keys: Set = [
        "issuer", "client_id", "client_secret_env", "client_secret_file", "scopes", "response_mode", "team_id", "key_id",
        "private_key_file",
        "authorization_endpoint", "token_endpoint", "userinfo_endpoint", "email_verified",
    ]

    public static func load(
        _ path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Problem) -> [String: IdentityProvider] {
        let text: String
        do { text = try ConfigurationFile.readText(path) } catch { throw Problem(lines: error.lines) }
        let document: Node?
        do { document = try Yams.compose(yaml: text) } catch let error as YamlError {
            throw Problem(lines: ConfigurationFile.syntaxProblems(error, in: path, text: text))
        } catch { throw Problem(lines: ["\(path): \(error)"]) }
        guard let document, document.mapping != nil else {
            throw Problem(lines: ["\(path): not a YAML mapping of provider names (apple, google, facebook)"])
        }
        return try providers(document, file: path, within: "", environment: environment)
    }

    /// The providers of a YAML mapping: this file's, or the `identity_providers` table of
    /// the server's configuration file (`within` names it before each provider). A path
    /// in it is relative to `file`'s folder.
    public static func providers(
        _ document: Node, file: String, within: String, environment: [String: String]
    ) throws(Problem)
        -> [String: IdentityProvider]
    {
        var providers: [String: IdentityProvider] = [:]
        var problems: [String] = []
        for (nameNode, value) in document.mapping ?? [:] {
            let name = nameNode.string ?? "\(nameNode)"
            let place = ConfigurationFile.place(file, nameNode) + ": \(within)\(name)"
            guard OnboardService.socialProviders.contains(name) else {
                problems.append("\(place): unknown provider; use apple, google or facebook")
                continue
            }
            guard let mapping = value.mapping else {
                problems.append("\(place): expected issuer, client_id and a client secret")
                continue
            }
            var entry = Entry(file: file, provider: "\(within)\(name)", place: place)
            for (key, value) in mapping {
                let text = key.string ?? "\(key)"
                entry.values[text] = value
                entry.places[text] = ConfigurationFile.place(file, key)
            }
            if let provider = entry.provider(environment: environment) { providers[name] = provider }
            problems += entry.problems
        }
        guard problems.isEmpty else { throw Problem(lines: problems) }
        return providers
    }

    /// One provider's entry as written, and what is wrong with it: every problem, each at
    /// the key it is about.
    struct Entry {
        let file: String
        /// `google`, or `identity_providers: google` in the configuration file.
        let provider: String
        /// Where the provider's name is written, for what no key of its own can show.
        let place: String
        var values: [String: Node] = [:]
        var places: [String: String] = [:]
        var problems: [String] = []

        mutating func problem(_ message: String, at key: String? = nil) {
            let at = key.flatMap { places[$0] }.map { "\($0): \(provider)" } ?? place
            problems.append("\(at): \(message)")
        }

        func text(_ key: String) -> String? { values[key]?.scalar?.string }

        /// A secret's file (beside this file when relative), refused when others may read it.
        mutating func secretFile(_ key: String) -> String? {
            guard let written = text(key) else { return nil }
            let path = SettingLayers.resolve(written, besideFile: file)
            do {
                guard let contents = try SecretFile.read(path) else {
                    problem("\(path) cannot be read", at: key)
                    return nil
                }
                return contents
            } catch {
                problem("\(error)", at: key)
                return nil
            }
        }

        mutating func address(_ key: String) -> String? {
            guard let text = text(key), let url = URL(string: text), url.host != nil,
                url.scheme == "https" || (url.scheme == "http" && Loopback.contains(url.host ?? ""))
            else {
                problem("\(key) must be an https:// address (http:// only on this machine, for tests)", at: values[key] == nil ? nil : key)
                return nil
            }
            return text
        }

        /// The provider when the entry is whole; otherwise nil, with every problem recorded.
        mutating func provider(environment: [String: String]) -> IdentityProvider? {
            // A secret is never written in a settings file (ASVS 5.0 13.3.1): it comes from
            // the environment or a file of its own, which a secret store can provide.
            if values["client_secret"] != nil {
                problem("a client secret is not written here; give client_secret_env or client_secret_file", at: "client_secret")
            }
            for unknown in values.keys.sorted() where !keys.contains(unknown) && unknown != "client_secret" {
                problem("unknown key '\(unknown)'", at: unknown)
            }
            let clientID = text("client_id").flatMap { $0.isEmpty ? nil : $0 }
            if clientID == nil { problem("client_id is missing", at: values["client_id"] == nil ? nil : "client_id") }
            let secret = clientSecret(environment: environment)
            let mode = text("response_mode")
            if let mode, mode != "form_post", mode != "query" { problem("response_mode is query or form_post", at: "response_mode") }
            let scopes = values["scopes"]?.sequence.map { $0.compactMap(\.string) }
            if values["authorization_endpoint"] != nil {
                // Plain OAuth 2.0 (Facebook): no discovery, the identity from its user-info endpoint.
                let (authorization, token, userInfo) = (
                    address("authorization_endpoint"), address("token_endpoint"), address("userinfo_endpoint")
                )
                guard let clientID, let secret, let authorization, let token, let userInfo, problems.isEmpty else { return nil }
                let endpoints = IdentityProvider.OAuthEndpoints(
                    authorization: authorization, token: token, userInfo: userInfo, emailIsVerified: values["email_verified"]?.bool ?? false
                )
                return IdentityProvider(
                    issuer: authorization, clientID: clientID, clientSecret: secret, scopes: scopes ?? ["email"],
                    responseMode: mode == "query" ? nil : mode, oauth: endpoints)
            }
            if let scopes, !scopes.contains("openid") { problem("scopes must include openid", at: "scopes") }
            let issuer = address("issuer")
            guard let clientID, let secret, let issuer, problems.isEmpty else { return nil }
            return IdentityProvider(
                issuer: issuer, clientID: clientID, clientSecret: secret, scopes: scopes ?? ["openid", "email"],
                responseMode: mode == "query" ? nil : mode)
        }

        /// From the environment, a file, or (Apple) a key the server signs with.
        mutating func clientSecret(environment: [String: String]) -> IdentityProvider.ClientSecret? {
            if let variable = text("client_secret_env") {
                guard let value = environment[variable], !value.isEmpty else {
                    problem("$\(variable) is not set", at: "client_secret_env")
                    return nil
                }
                return .fixed(value)
            }
            if values["client_secret_file"] != nil {
                return secretFile("client_secret_file").map { .fixed($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            if let team = text("team_id"), let key = text("key_id"), values["private_key_file"] != nil {
                guard let pem = secretFile("private_key_file") else { return nil }
                guard ClientSecretSigner.isUsable(pem) else {
                    problem(
                        "\(SettingLayers.resolve(text("private_key_file") ?? "", besideFile: file)) is not an ES256 (P-256) private key in PEM",
                        at: "private_key_file")
                    return nil
                }
                return .signed(teamID: team, keyID: key, privateKeyPEM: pem)
            }
            if values["client_secret"] == nil {
                problem("give client_secret_env, client_secret_file, or (Apple) team_id, key_id and private_key_file")
            }
            return nil
        }
    }
}
