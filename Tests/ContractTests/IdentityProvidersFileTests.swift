import Crypto
import Foundation
import OnboardServer
import Testing

/// Issue 34: the operator's providers file, read as onboard-server starts: each
/// provider's entry, and a plain one-line refusal for each mistake, before anyone tries
/// to sign in. A secret never sits in the file (ASVS 5.0 13.3.1: secrets from a vault or
/// the environment, not the configuration).
@Suite struct IdentityProvidersFileTests {
    func load(_ yaml: String, environment: [String: String] = ["GOOGLE_SECRET": "g-secret"]) throws -> [String: IdentityProvider] {
        let path = temporaryPath("providers.yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return try IdentityProvidersFile.load(path, environment: environment)
    }

    func problem(_ yaml: String, environment: [String: String] = [:]) -> String? {
        do {
            _ = try load(yaml, environment: environment)
            return nil
        } catch {
            return "\(error)".components(separatedBy: ": ").dropFirst().joined(separator: ": ")
        }
    }

    @Test func eachProvidersEntryReadsAsTheOperatorWroteIt() throws {
        let key = temporaryPath("AuthKey_KEY1234567.p8")
        let pem = P256.Signing.PrivateKey().pemRepresentation
        try pem.write(toFile: key, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let providers = try load(
            """
            google:
              issuer: https://accounts.google.com
              client_id: 1234.apps.googleusercontent.com
              client_secret_env: GOOGLE_SECRET
            apple:
              issuer: https://appleid.apple.com
              client_id: org.onboard.signin
              team_id: TEAM123456
              key_id: KEY1234567
              private_key_file: \(key)
              response_mode: form_post
              scopes: [openid, email, name]
            facebook:
              authorization_endpoint: https://www.facebook.com/v19.0/dialog/oauth
              token_endpoint: https://graph.facebook.com/v19.0/oauth/access_token
              userinfo_endpoint: https://graph.facebook.com/v19.0/me?fields=id,email
              email_verified: true
              client_id: "987654321"
              client_secret_env: GOOGLE_SECRET
              scopes: [email]
            """)
        #expect(
            providers["google"]
                == IdentityProvider(
                    issuer: "https://accounts.google.com", clientID: "1234.apps.googleusercontent.com", clientSecret: "g-secret"))
        #expect(providers["apple"]?.clientSecret == .signed(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: pem))
        #expect(providers["apple"]?.responseMode == "form_post" && providers["apple"]?.scopes == ["openid", "email", "name"])
        #expect(providers["facebook"]?.oauth?.userInfo == "https://graph.facebook.com/v19.0/me?fields=id,email")
        #expect(providers["facebook"]?.oauth?.emailIsVerified == true)
    }

    @Test func eachMistakeIsSaidInOneLine() {
        #expect(
            problem("myspace: {issuer: https://m.example, client_id: x, client_secret_env: S}")
                == "myspace: unknown provider; use apple, google or facebook")
        #expect(
            problem("google: {issuer: https://accounts.google.com, client_id: x, client_secret: hunter2}")
                == "google: a client secret is not written here; give client_secret_env or client_secret_file")
        #expect(
            problem("google: {issuer: https://accounts.google.com, client_id: x, client_secret_env: NOT_SET}")
                == "google: $NOT_SET is not set")
        #expect(
            problem("google: {issuer: http://accounts.example.com, client_id: x, client_secret_env: S}", environment: ["S": "s"])
                == "google: issuer must be an https:// address (http:// only on this machine, for tests)")
        #expect(
            problem(
                "google: {issuer: https://accounts.google.com, client_id: x, client_secret_env: S, scopes: [email]}",
                environment: ["S": "s"])
                == "google: scopes must include openid")
        let notAKey = temporaryPath("not-a-key.p8")
        try? "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n".write(toFile: notAKey, atomically: true, encoding: .utf8)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: notAKey)
        #expect(
            problem("apple: {issuer: https://appleid.apple.com, client_id: x, team_id: T, key_id: K, private_key_file: \(notAKey)}")
                == "apple: \(notAKey) is not an ES256 (P-256) private key in PEM")
        #expect(problem("- google") == "not a YAML mapping of provider names (apple, google, facebook)")
    }

    /// Issue 46: a client secret or private key others could read was used as it was.
    /// Refused, as ssh refuses such a key, with the command that fixes it; the admin
    /// token's file the same.
    @Test func aSecretFileOthersCanReadIsRefused() throws {
        let secret = temporaryPath("google.secret")
        try "g-secret\n".write(toFile: secret, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: secret)
        #expect(
            problem("google: {issuer: https://accounts.google.com, client_id: x, client_secret_file: \(secret)}")
                == "google: \(secret) can be read by other users (mode 644): run chmod 600 \(secret)")
        let token = temporaryPath("admin-token")
        try "0f3c9a1e7b2d4c5a8e6f1b3d9c7a2e4f0b8d6c1a3e5f7b9d2c4a6e8f0b1d3c5a\n".write(toFile: token, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: token)
        #expect(throws: AdminToken.Unusable.self) { try AdminToken.load(file: token, environment: [:]) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: token)
        #expect(try AdminToken.load(file: token, environment: [:])?.count == 64)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
        #expect(problem("google: {issuer: https://accounts.google.com, client_id: x, client_secret_file: \(secret)}") == nil)
    }
}
