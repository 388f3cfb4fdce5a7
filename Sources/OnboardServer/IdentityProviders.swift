import Foundation
import OnboardService
import ServiceAPI
import Yams

/// The identity providers onboard-server brokers a social sign-in with (OpenID Connect's
/// authorization code flow), by the names ABBY's buttons use: what the operator
/// registered with each (DECISIONS 36).
public struct IdentityProvider: Sendable, Equatable {
    /// The issuer, exactly as its discovery document (`/.well-known/openid-configuration`)
    /// and its ID tokens say it.
    public var issuer: String
    public var clientID: String
    public var clientSecret: String
    public var scopes: [String]
    /// `form_post` for Apple, which answers the callback with a POST (OAuth 2.0 Form
    /// Post Response Mode); nil for the query string.
    public var responseMode: String?
    /// The development provider served by this server (`--dev`): its issuer is
    /// `<the address the browser used>/dev-idp`, so `issuer` is a path.
    public var isDevelopment = false

    public init(issuer: String, clientID: String, clientSecret: String, scopes: [String] = ["openid", "email"], responseMode: String? = nil) {
        (self.issuer, self.clientID, self.clientSecret, self.scopes, self.responseMode) = (issuer, clientID, clientSecret, scopes, responseMode)
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

/// A providers file (`onboard-server --identity-providers FILE`), YAML:
///
///     google:
///       issuer: https://accounts.google.com
///       client_id: 1234.apps.googleusercontent.com
///       client_secret_env: ONBOARD_GOOGLE_CLIENT_SECRET   # or client_secret_file: PATH
///       scopes: [openid, email]
///     apple:
///       issuer: https://appleid.apple.com
///       response_mode: form_post
///       ...
public enum IdentityProvidersFile {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public static func load(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: IdentityProvider] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Problem(description: "\(path): cannot be read") }
        guard let document = try? Yams.load(yaml: text) as? [String: Any] else {
            throw Problem(description: "\(path): not a YAML mapping of provider names (apple, google, facebook)")
        }
        var providers: [String: IdentityProvider] = [:]
        for (name, value) in document {
            let place = "\(path): \(name)"
            guard OnboardService.socialProviders.contains(name) else {
                throw Problem(description: "\(place): unknown provider; use apple, google or facebook")
            }
            guard let entry = value as? [String: Any] else { throw Problem(description: "\(place): expected issuer, client_id and a client secret") }
            let known: Set = ["issuer", "client_id", "client_secret_env", "client_secret_file", "scopes", "response_mode"]
            if let unknown = entry.keys.first(where: { !known.contains($0) }) { throw Problem(description: "\(place): unknown key '\(unknown)'") }
            guard let issuer = entry["issuer"] as? String, let url = URL(string: issuer), url.host != nil,
                  url.scheme == "https" || (url.scheme == "http" && Loopback.contains(url.host ?? ""))
            else { throw Problem(description: "\(place): issuer must be an https:// address (http:// only on this machine, for tests)") }
            guard let clientID = entry["client_id"] as? String, !clientID.isEmpty else { throw Problem(description: "\(place): client_id is missing") }
            let secret: String
            if let variable = entry["client_secret_env"] as? String {
                guard let value = environment[variable], !value.isEmpty else { throw Problem(description: "\(place): $\(variable) is not set") }
                secret = value
            } else if let file = entry["client_secret_file"] as? String {
                guard let value = try? String(contentsOfFile: file, encoding: .utf8) else { throw Problem(description: "\(place): \(file) cannot be read") }
                secret = value.trimmingCharacters(in: .whitespacesAndNewlines)
            } else {
                // Never in the file itself: a file is copied, committed, shown on a screen.
                throw Problem(description: "\(place): give client_secret_env or client_secret_file")
            }
            let scopes = entry["scopes"] as? [String] ?? ["openid", "email"]
            guard scopes.contains("openid") else { throw Problem(description: "\(place): scopes must include openid") }
            let mode = entry["response_mode"] as? String
            if let mode, mode != "form_post", mode != "query" { throw Problem(description: "\(place): response_mode is query or form_post") }
            providers[name] = IdentityProvider(issuer: issuer, clientID: clientID, clientSecret: secret, scopes: scopes, responseMode: mode == "query" ? nil : mode)
        }
        return providers
    }
}
