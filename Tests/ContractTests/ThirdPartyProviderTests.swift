import Crypto
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
// A stalled provider fails its test within minutes instead of holding CI (seen twice under load).
@Suite(.timeLimit(.minutes(3))) struct ThirdPartyProviderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ThirdParty").path

    /// The Authlib provider, on a free loopback port, for one client.
    final class AuthlibProvider: Sendable {
        let pid: pid_t
        let issuer: String

        init(clientID: String, secret: String, redirect: String, mode: [String] = []) async throws {
            let log = temporaryPath("authlib.log")
            let script = ThirdPartyProviderTests.folder + "/authlib_provider.py"
            guard let pid = Subprocess.spawn("/usr/bin/env", ["python3", script, clientID, secret, redirect] + mode, output: log) else {
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
                throw ServiceError(
                    .network, "Authlib (pip install authlib flask; .ci/run installs them) did not start: \(said.suffix(600))")
            }
            issuer = String(match.1)
        }

        func stop() { kill(pid, SIGTERM) }
    }

    /// A provider told the server's return address before the server starts, so on a port
    /// picked first. Another suite's connection can take that port before the server binds
    /// it (both come from the same ephemeral range): then both start again on another.
    static func onAPickedPort(
        _ startProvider: (_ base: String) async throws -> AuthlibProvider,
        server startServer: (_ provider: AuthlibProvider, _ port: Int) async throws -> RunningServer
    ) async throws -> (AuthlibProvider, RunningServer) {
        for attempt in 1...3 {
            let port = ThrowawayPostgres.freePort()
            let provider = try await startProvider("http://127.0.0.1:\(port)")
            do {
                return (provider, try await startServer(provider, port))
            } catch  where attempt < 3 {
                provider.stop()
            } catch {
                provider.stop()
                throw error
            }
        }
        throw ServiceError(.network, "no port could be had")
    }

    /// Walks the Authlib provider's page: Allow or Deny, then back to the server.
    static func approveAtAuthlib(base: String, code: String, allow: Bool) async throws -> BrowserWalk.Answer {
        var browser = BrowserWalk()
        let typed = try await browser.enter(code, base: base)
        let authorize = try #require(typed.location, "\(typed.status) \(typed.page)")
        let page = try await browser.send(authorize)
        #expect(page.status == 200 && page.page.contains("Sign in to Onboard as Gina?"), "\(page.page)")
        let action = try #require(page.page.firstMatch(of: /action="([^"]+)"/).map { BrowserWalk.unescaped(String($0.1)) })
        let origin =
            String(authorize.prefix { $0 != "/" }) + "//"
            + (URL(string: authorize)?.host.map { $0 + ":\(URL(string: authorize)?.port ?? 80)" } ?? "")
        var decided = try await browser.send(origin + action, form: [("decision", allow ? "allow" : "deny")])
        if decided.status == 200, let post = decided.page.firstMatch(of: /<form method="post" action="([^"]+)">/) {
            // form_post (Apple): the answer comes back as a form the browser posts.
            let target = BrowserWalk.unescaped(String(post.1))
            #expect(target == base + "/device/callback")
            let posted = try await browser.send(target, form: BrowserWalk.hiddenFields(decided.page))
            return try await browser.landing(posted, base: base)
        }
        let callback = try #require(decided.location, "\(decided.status) \(decided.page)")
        #expect(callback.hasPrefix(base + "/device/callback?"))
        decided = try await browser.send(callback)
        return try await browser.landing(decided, base: base)
    }

    @Test func anAuthlibProviderSignsAPersonInThroughTheBroker() async throws {
        let (provider, server) = try await Self.onAPickedPort { base in
            try await AuthlibProvider(clientID: "onboard-google", secret: "g-secret", redirect: base + "/device/callback")
        } server: { provider, port in
            let google = IdentityProvider(issuer: provider.issuer, clientID: "onboard-google", clientSecret: "g-secret")
            return try await RunningServer.start(dev: false, identityProviders: ["google": google], port: port)
        }
        defer { provider.stop() }
        defer { server.stop() }
        let transport = try HTTPTransport(base: server.base)
        await #expect(throws: ServiceError.self, "only configured providers: no Apple here") {
            _ = try await transport.startSocialDevice(flow: "abby", provider: "apple")
        }

        // A browser holds the code form's redirect to form-action too: the provider's
        // origin is allowed there, and no other (headless Chromium found this).
        var browser = BrowserWalk()
        let form = try await browser.send(server.base + "/device")
        let policy = try #require(
            form.headers.first { $0.name.lowercased() == "content-security-policy" }?.value, "\(form.status) \(form.headers)")
        #expect(policy.contains("form-action 'self' \(provider.issuer);"), "\(policy)")

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
        let run = await Subprocess.run(
            "/usr/bin/env", ["python3", Self.folder + "/authlib_client_check.py", server.base, "Ana@Example.org"])
        try #require(run.status == 0, "Authlib's client refused it: \(run.output.suffix(1500))")
        let line = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("{") })
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(claims["iss"] as? String == server.base + "/dev-idp")
        #expect(claims["aud"] as? String == "onboard-dev")
        #expect(claims["email"] as? String == "ana@example.org")
        #expect(claims["alg"] as? String == "ES256")
        #expect(claims["state_returned"] as? Bool == true)
    }

    /// Sign in with Apple's way: a client secret the server signs (ES256, the team's key)
    /// for each token request, checked by the provider, and the answer posted back.
    @Test func anAppleStyleProviderTakesASignedClientSecretAndPostsItsAnswer() async throws {
        let teamKey = P256.Signing.PrivateKey()
        let publicKey = temporaryPath("apple-key.pub.pem")
        try teamKey.publicKey.pemRepresentation.write(toFile: publicKey, atomically: true, encoding: .utf8)
        let (provider, server) = try await Self.onAPickedPort { base in
            try await AuthlibProvider(
                clientID: "org.onboard.signin", secret: "unused", redirect: base + "/device/callback",
                mode: ["--apple", publicKey, "TEAM123456"])
        } server: { provider, port in
            let apple = IdentityProvider(
                issuer: provider.issuer, clientID: "org.onboard.signin",
                clientSecret: .signed(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: teamKey.pemRepresentation),
                responseMode: "form_post")
            return try await RunningServer.start(dev: false, identityProviders: ["apple": apple], port: port)
        }
        defer { provider.stop() }
        defer { server.stop() }
        let transport = try HTTPTransport(base: server.base)
        let started = try await transport.startSocialDevice(flow: "abby", provider: "apple")
        let done = try await Self.approveAtAuthlib(base: server.base, code: started.userCode, allow: true)
        let page = done.page
        #expect(page.contains("You're signed in"), "\(page)")
        let signIn = try await transport.pollSocialDevice(flow: "abby", deviceCode: started.deviceCode)
        #expect(try await transport.profile(accessToken: signIn.session.accessToken).email == "gina@example.com")
    }

    /// Facebook's way: plain OAuth 2.0, the person read from its Graph-like `/me`.
    @Test func aFacebookStyleProviderGivesThePersonFromItsUserInfo() async throws {
        let (provider, server) = try await Self.onAPickedPort { base in
            try await AuthlibProvider(clientID: "fb-app", secret: "fb-secret", redirect: base + "/device/callback", mode: ["--facebook"])
        } server: { provider, port in
            let endpoints = IdentityProvider.OAuthEndpoints(
                authorization: provider.issuer + "/authorize", token: provider.issuer + "/token", userInfo: provider.issuer + "/me",
                emailIsVerified: true)
            let facebook = IdentityProvider(
                issuer: endpoints.authorization, clientID: "fb-app", clientSecret: .fixed("fb-secret"), scopes: ["email"], oauth: endpoints)
            return try await RunningServer.start(dev: false, identityProviders: ["facebook": facebook], port: port)
        }
        defer { provider.stop() }
        defer { server.stop() }
        let transport = try HTTPTransport(base: server.base)
        let started = try await transport.startSocialDevice(flow: "abby", provider: "facebook")
        let done = try await Self.approveAtAuthlib(base: server.base, code: started.userCode, allow: true)
        let page = done.page
        #expect(page.contains("You're signed in"), "\(page)")
        let signIn = try await transport.pollSocialDevice(flow: "abby", deviceCode: started.deviceCode)
        #expect(signIn.isNewUser)
        #expect(try await transport.profile(accessToken: signIn.session.accessToken).email == "gina@example.com")
    }
}
