import Crypto
import EmbeddedMock
import Foundation
import GRDB
import OnboardService
import SQLiteStore
import ServiceAPI
import ServiceClient
import Synchronization
import Testing
import TestSupport

/// The embedded mock in its own process (`onboard-mock`, issue 50): the real executable
/// over a real socket pair and SQLite file, answering as the mock in process does.
@Suite struct MockHelperTests {
    /// A helper over `database`, sealed with `key`, its clock `offset` seconds ahead.
    static func helper(
        _ database: String, key: SymmetricKey? = nil, offset: Offset = Offset(), executable: String = BuiltExecutable.path("onboard-mock"),
        opened: @escaping @Sendable (MockHelperFrame.Opened) -> Void = { _ in }
    ) -> MockHelperTransport {
        let bytes = key.map { $0.withUnsafeBytes { Array($0) } }
        return MockHelperTransport(
            .init(executable: executable, database: database, sealingKey: { bytes }, clockOffset: { offset.add(0) }, opened: opened))
    }

    @Test func itAnswersAndRefusesAsTheMockInProcessDoes() async throws {
        let helper = Self.helper(temporaryPath("mock.sqlite"))
        let inProcess = InProcessTransport(service: try OnboardService(database: ServiceDatabase.open(path: temporaryPath("mock.sqlite"))))
        for service in [helper, inProcess] as [any AuthService] {
            #expect(try await service.health() == "ok")
            let made = try await service.register(flow: "babybasics", name: "Ana", email: "ana@example.com", password: "correct horse 1")
            #expect(try await service.profile(accessToken: made.accessToken).email == "ana@example.com")
        }
        // The same refusal, word for word, from both.
        var refusals: [ServiceError] = []
        for service in [helper, inProcess] as [any AuthService] {
            do {
                _ = try await service.login(flow: "babybasics", email: "ana@example.com", password: "wrong password 1")
            } catch let error as ServiceError { refusals.append(error) }
        }
        #expect(refusals.count == 2)
        #expect(refusals.first == refusals.last)
    }

    @Test func overlappingCallsEachGetTheirOwnAnswer() async throws {
        let helper = Self.helper(temporaryPath("mock.sqlite"))
        let emails = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<12 {
                group.addTask {
                    let made = try await helper.register(
                        flow: "babybasics", name: "P\(index)", email: "p\(index)@example.com", password: "long password \(index)")
                    return try await helper.profile(accessToken: made.accessToken).email
                }
            }
            return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(emails == Set((0..<12).map { "p\($0)@example.com" }))
    }

    @Test func aStoppedHelperIsStartedAgainWithEveryAccountKept() async throws {
        let database = temporaryPath("mock.sqlite")
        let helper = Self.helper(database)
        _ = try await helper.register(flow: "babybasics", name: "Ana", email: "ana@example.com", password: "correct horse 1")
        let first = try #require(await helper.processID)
        kill(first, SIGKILL)
        // The call that meets the dead helper is a dropped connection; the next starts another.
        var session: IssuedSession?
        for _ in 0..<3 where session == nil {
            do {
                session = try await helper.login(flow: "babybasics", email: "ana@example.com", password: "correct horse 1")
            } catch let error as ServiceError {
                #expect(error.code == .network, "\(error)")
            }
        }
        #expect(session != nil)
        #expect(try #require(await helper.processID) != first)
    }

    @Test func itsClockMovesWithTheClients() async throws {
        let offset = Offset()
        let helper = Self.helper(temporaryPath("mock.sqlite"), offset: offset)
        let made = try await helper.register(flow: "babybasics", name: "Ana", email: "ana@example.com", password: "correct horse 1")
        _ = try await helper.profile(accessToken: made.accessToken)
        _ = offset.add(2 * 86_400)
        do {
            _ = try await helper.profile(accessToken: made.accessToken)
            Issue.record("an access token two days old was taken")
        } catch let error as ServiceError {
            #expect(error.code == .unauthorized)
        }
    }

    @Test func theFolderKeySealsItsColumnsAndAnotherKeyFindsThemLost() async throws {
        let database = temporaryPath("mock.sqlite")
        let key = SymmetricKey(size: .bits256)
        let helper = Self.helper(database, key: key)
        _ = try await helper.register(flow: "babybasics", name: "Ana", email: "ana@example.com", password: "correct horse 1")
        let file = try DatabaseQueue(path: database)
        let inClear = try await file.read { try String.fetchAll($0, sql: "SELECT email FROM users WHERE email LIKE '%example.com%'") }
        #expect(inClear.isEmpty, "the email is sealed")
        try file.close()
        let reports = Mutex<[MockHelperFrame.Opened]>([])
        let stranger = Self.helper(database, key: SymmetricKey(size: .bits256)) { opened in reports.withLock { $0.append(opened) } }
        #expect(try await stranger.health() == "ok")
        let lostAs = try #require(reports.withLock { $0.first?.lostAs })
        #expect(FileManager.default.fileExists(atPath: lostAs))
    }

    @Test func aDamagedFileIsSetAsideAndSaid() async throws {
        let database = temporaryPath("mock.sqlite")
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: database))
        let reports = Mutex<[MockHelperFrame.Opened]>([])
        let helper = Self.helper(database) { opened in reports.withLock { $0.append(opened) } }
        #expect(try await helper.health() == "ok")
        let warning = try #require(reports.withLock { $0.first?.warning })
        #expect(warning.hasPrefix("The mock service's database could not be opened"))
        let folder = (database as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.hasPrefix("mock.sqlite.corrupt-") })
    }

    @Test func aMissingHelperIsSaidPlainly() async throws {
        let helper = Self.helper(temporaryPath("mock.sqlite"), executable: "/nonexistent/onboard-mock")
        do {
            _ = try await helper.health()
            Issue.record("a helper that is not there answered")
        } catch let error as ServiceError {
            #expect(error.message.contains("could not be started"), "\(error)")
        }
    }
}
