import EmbeddedMock
import OnboardService
import SQLiteStore
import ServiceAPI
import ServiceClient
import Testing

/// The mock identity provider's keys and the QA fault that forges its tokens.
@Suite struct SocialSignInTests {
    let path = temporaryDatabasePath()

    @Test func theProviderKeyOutlivesARestartSoEarlierTokensStillVerify() async throws {
        let first = try OnboardService(database: try ServiceDatabase.open(path: path))
        let token = try await first.mockIdentityToken(
            provider: "apple", account: "a@icloud.com", audience: MockIdentityProvider.audience, nonce: "n")
        let restarted = try OnboardService(database: try ServiceDatabase.open(path: path))
        let signIn = try await restarted.socialSignIn(provider: "apple", idToken: token, nonce: "n", policy: .named)
        #expect(signIn.isNewUser)
    }

    @Test func anotherDatabasesProviderIsNotTrusted() async throws {
        let elsewhere = try OnboardService(database: try ServiceDatabase.open(path: temporaryDatabasePath()))
        let token = try await elsewhere.mockIdentityToken(
            provider: "apple", account: "a@icloud.com", audience: MockIdentityProvider.audience, nonce: "n")
        let service = try OnboardService(database: try ServiceDatabase.open(path: path))
        await #expect(throws: ServiceError.self) {
            _ = try await service.socialSignIn(provider: "apple", idToken: token, nonce: "n", policy: .named)
        }
    }

    @Test func theForgedTokenFaultIsRefusedByTheServicesOwnCheck() async throws {
        let service = try OnboardService(database: try ServiceDatabase.open(path: path))
        let faulty = FaultInjectingService(wrapping: InProcessTransport(service: service), faults: [.forgedIDToken])
        let token = try await faulty.mockIdentityToken(
            provider: "google", account: "g@example.org", audience: MockIdentityProvider.audience, nonce: "n")
        do {
            _ = try await faulty.socialSignIn(flow: "abby", provider: "google", idToken: token, nonce: "n")
            Issue.record("a forged token was accepted")
        } catch let error as ServiceError {
            #expect(error.code == .unauthorized)
            #expect(error.message == "Sign in with Google could not be verified. Please try again.")
        }
    }
}
