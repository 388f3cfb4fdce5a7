import Foundation
import OnboardServer
import OnboardService
import ServiceAPI
import ServiceClient
import TestSupport
import Testing

/// Issue 34: the broker against an OpenID provider it did not write — one built on
/// Authlib (PyPI), started as "Google", which signs its ID tokens with RS256 — and the
/// development provider checked by Authlib's client, so neither side is only checked
/// against itself.
@Suite struct ThirdPartyProviderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ThirdParty").path

    /// The Authlib provider, on a free loopback port, for one client.
    final class AuthlibProvider: Sendable {
        let pid: pid_t
        let issuer: String

        init(clientID: String, secret: String, redirect: String) async throws {
            let log = temporaryPath("authlib.log")
            let script = ThirdPartyProviderTests.folder + "/authlib_provider.py"
            guard let pid = Subprocess.spawn("/usr/bin/env", ["python3", script, clientID, secret, redirect], output: log) else {
                throw POSIXError(.ENOENT)
            }
            self.pid = pid
            var said = ""
            for _ in 0..<300 where !said.contains("listening on ") {
                try await Task.sleep(for: .milliseconds(100))
                said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            }
            guard let match = said.firstMatch(of: /listening on (http:\/\/127\.0\.0\.1:\d+)/) else {
                kill(pid, SIGTERM)
                throw ServiceError(.network, "Authlib (pip install authlib flask; .ci/run installs them) did not start: \(said.suffix(600))")
            }
            issuer = String(match.1)
        }

        func stop() { kill(pid, SIGTERM) }
    }

    /// Walks the Authlib provider's page: Allow or Deny, then back to the server.
    static func approveAtAuthlib(base: String, code: String, allow: Bool) async throws -> BrowserWalk.Answer {
        var browser = BrowserWalk()
        let typed = try await browser.send(base + "/device", form: [("user_code", code)])
        let authorize = try #require(typed.location, "\(typed.status) \(typed.page)")
        let page = try await browser.send(authorize)
        #expect(page.status == 200 && page.page.contains("Sign in to Onboard as Gina?"), "\(page.page)")
        let action = try #require(page.page.firstMatch(of: /action="([^"]+)"/).map { BrowserWalk.unescaped(String($0.1)) })
        let origin = String(authorize.prefix { $0 != "/" }) + "//" + (URL(string: authorize)?.host.map { $0 + ":\(URL(string: authorize)?.port ?? 80)" } ?? "")
        let decided = try await browser.send(origin + action, form: [("decision", allow ? "allow" : "deny")])
        let callback = try #require(decided.location, "\(decided.status) \(decided.page)")
        #expect(callback.hasPrefix(base + "/device/callback?"))
        return try await browser.landing(try await browser.send(callback), base: base)
    }

    @Test func anAuthlibProviderSignsAPersonInThroughTheBroker() async throws {
        let port = ThrowawayPostgres.freePort()
        // The provider must know the server's return address before the server starts:
        // a port picked here, the server started on it.
        let base = "http://127.0.0.1:\(port)"
        let provider = try await AuthlibProvider(clientID: "onboard-google", secret: "g-secret", redirect: base + "/device/callback")
        defer { provider.stop() }
        let google = IdentityProvider(issuer: provider.issuer, clientID: "onboard-google", clientSecret: "g-secret")
        let server = try await RunningServer.start(dev: false, identityProviders: ["google": google], port: port)
        defer { server.stop() }
        let transport = try HTTPTransport(base: server.base)
        await #expect(throws: ServiceError.self, "only configured providers: no Apple here") {
            _ = try await transport.startSocialDevice(flow: "abby", provider: "apple")
        }

        let started = try await transport.startSocialDevice(flow: "abby", provider: "google")
        let done = try await Self.approveAtAuthlib(base: server.base, code: started.userCode, allow: true)
        let signedInPage = done.page
        #expect(done.status == 200)
        #expect(signedInPage.contains("You're signed in"), "\(signedInPage)")
        let signIn = try await transport.pollSocialDevice(flow: "abby", deviceCode: started.deviceCode)
        #expect(signIn.isNewUser && !signIn.session.isAnonymous)
        #expect(try await transport.profile(accessToken: signIn.session.accessToken).email == "gina@example.com")

        // Denied at the provider: the terminal's poll is access_denied, the page says so.
        let denied = try await transport.startSocialDevice(flow: "abby", provider: "google")
        let page = try await Self.approveAtAuthlib(base: server.base, code: denied.userCode, allow: false)
        let deniedPage = page.page
        #expect(deniedPage.contains("Sign-in not approved"), "\(deniedPage)")
        do {
            _ = try await transport.pollSocialDevice(flow: "abby", deviceCode: denied.deviceCode)
            Issue.record("a denied sign-in gave a session")
        } catch let error as ServiceError {
            #expect(error.code == .accessDenied)
        }
    }

    @Test func theDevelopmentProviderPassesAuthlibsClient() async throws {
        let server = try await RunningServer.start(dev: true)
        defer { server.stop() }
        let run = await Subprocess.run("/usr/bin/env", ["python3", Self.folder + "/authlib_client_check.py", server.base, "Ana@Example.org"])
        try #require(run.status == 0, "Authlib's client refused it: \(run.output.suffix(1500))")
        let line = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("{") })
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(claims["iss"] as? String == server.base + "/dev-idp")
        #expect(claims["aud"] as? String == "onboard-dev")
        #expect(claims["email"] as? String == "ana@example.org")
        #expect(claims["alg"] as? String == "ES256")
        #expect(claims["state_returned"] as? Bool == true)
    }
}
