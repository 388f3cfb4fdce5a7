import EmbeddedMock
import AsyncHTTPClient
import Foundation
import NIOHTTP1
import OnboardService
import SQLiteStore
import ServiceAPI
import ServiceClient
import Testing

/// What the server admits (issue 31), each rule named by its OWASP ASVS 4.0.3 requirement.
@Suite struct TrustBoundaryTests {
    /// ASVS 14.3.2 (debug features off in production): without `--dev` the mock identity
    /// provider signs nothing, and social sign-in refuses in plain words even a token it
    /// signed for a victim on a `--dev` run of the same store.
    @Test(arguments: ["in-process", "http"]) func withoutDevNobodyMintsASocialSignIn(kind: String) async throws {
        let path = temporaryPath("service.sqlite")
        let devRun = try OnboardService(database: ServiceDatabase.open(path: path), settings: contractSettings)
        let victimsToken = try await devRun.mockIdentityToken(
            provider: "google", account: "victim@example.org", audience: MockIdentityProvider.audience, nonce: "n-1")
        var production = contractSettings
        production.mockIdentityProvider = false
        let server = kind == "http" ? try await RunningServer.start(dev: false, databasePath: path) : nil
        defer { server?.stop() }
        let service: any AuthService =
            try server.map { try HTTPTransport(base: $0.base, timeout: .seconds(30)) }
            ?? InProcessTransport(service: try OnboardService(database: ServiceDatabase.open(path: path), settings: production))

        do {
            _ = try await service.mockIdentityToken(
                provider: "google", account: "victim@example.org", audience: MockIdentityProvider.audience, nonce: "n-2")
            Issue.record("the mock identity provider signed a token without --dev")
        } catch let error as ServiceError {
            #expect(error.code == .notFound)
        }
        do {
            _ = try await service.socialSignIn(flow: "abby", provider: "google", idToken: victimsToken, nonce: "n-1")
            Issue.record("a mock provider's token signed in without --dev")
        } catch let error as ServiceError {
            #expect(error == ServiceError(.notFound, "Sign in with Google is not available on this server. Use another way to sign in."))
        }
    }

    /// ASVS 14.3.2: the route itself is not there without `--dev` (the attack went straight
    /// to it), and is with it.
    @Test func theMockIdentityProvidersRouteIsServedOnlyWithDev() async throws {
        for dev in [false, true] {
            let server = try await RunningServer.start(dev: dev)
            defer { server.stop() }
            var request = HTTPClientRequest(url: server.base + "/api/v1/mock-idp/token")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(
                Data(#"{"provider":"google","account":"victim@example.org","audience":"org.onboard.client","nonce":"n"}"#.utf8))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status.code == (dev ? 200 : 404), "dev: \(dev)")
        }
    }

    /// ASVS 8.2.1 (no caching of sensitive answers) and 14.4.4 (nosniff): token answers
    /// lacked both. Every answer carries them, errors included.
    @Test func everyAnswerSaysNoStoreAndNosniff() async throws {
        let server = try await RunningServer.start(dev: false)
        defer { server.stop() }
        for (method, path, body) in [
            (HTTPMethod.POST, "/api/v1/auth/anonymous", #"{"flow":"oklah"}"#), (.GET, "/api/v1/health", ""),
            (.GET, "/api/v1/no-such-route", ""),
        ] {
            var request = HTTPClientRequest(url: server.base + path)
            request.method = method
            if !body.isEmpty {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(Data(body.utf8))
            }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.headers["Cache-Control"] == ["no-store"], "\(path)")
            #expect(response.headers["X-Content-Type-Options"] == ["nosniff"], "\(path)")
        }
    }
}
