import EmbeddedMock
import FlowEngine
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ServiceAPI
import ServiceClient
import Synchronization
import Testing

/// Counts refreshes, slowly, so overlapping callers really overlap.
final class CountingService: AuthServiceDecorator {
    let base: any AuthService
    let refreshes = Mutex(0)

    init() throws {
        base = InProcessTransport(service: try OnboardService(database: try ServiceDatabase.inMemory()))
    }

    func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T {
        if endpoint == .refresh {
            refreshes.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await call()
    }
}

@Suite struct SessionRefresherTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-refresh-\(UUID().uuidString)").path

    func signedIn(_ service: CountingService) async throws -> Session {
        let signIn = try await service.signInAnonymously(flow: "oklah")
        return Session(
            userID: signIn.session.userID, accessToken: signIn.session.accessToken, accessExpiresAt: signIn.session.accessExpiresAt,
            refreshToken: signIn.session.refreshToken, refreshExpiresAt: nil, isAnonymous: true,
            createdAt: signIn.session.createdAt, lastAuthenticated: signIn.session.issuedAt)
    }

    @Test func concurrentRefreshesInOneProcessShareOneCall() async throws {
        let service = try CountingService()
        let session = try await signedIn(service)
        let refresher = SessionRefresher(file: SessionFile(path: folder + "/session.json"))
        async let first = refresher.refresh(session, now: 0, using: service)
        async let second = refresher.refresh(session, now: 0, using: service)
        let (a, b) = try await (first, second)
        #expect(a == b)
        #expect(service.refreshes.withLock { $0 } == 1)
    }

    @Test func asecondProcessFindsTheSessionAlreadyRenewedAndDoesNotSpendTheTokenAgain() async throws {
        let service = try CountingService()
        let session = try await signedIn(service)
        let file = SessionFile(path: folder + "/session.json")
        try file.save(session)
        // Two refreshers stand for two processes: they share only the file and its lock.
        let one = SessionRefresher(file: file)
        let other = SessionRefresher(file: file)
        async let first = one.refresh(session, now: 0, using: service)
        async let second = other.refresh(session, now: 0, using: service)
        let (a, b) = try await (first, second)
        #expect(a.refreshToken == b.refreshToken)
        #expect(service.refreshes.withLock { $0 } == 1)
        #expect(try file.load()?.refreshToken == a.refreshToken)
    }
}
