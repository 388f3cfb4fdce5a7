import FoundationEssentials
import OnboardRuntime
import ScreenTable
import ServiceAPI
import ServiceClient
import Synchronization

/// Where a run's calls go: the embedded mock (sealed with the state folder's key when it
/// is the folder's own) or an onboard-server, with the QA faults around either, and the
/// outbox the QA console reads from the one in use.
extension Launcher {
    /// Where calls go: the service Onboard was started with (the embedded mock, or an
    /// onboard-server), and whatever address a flow names; the QA faults wrap each. The
    /// embedded mock runs as `onboard-mock`, started on its first call, after the first
    /// screen; only a file whose opening has something to say (`EmbeddedMockFile`) is
    /// opened before it, so the first screen says it.
    func makeServices(stateFolder: String, secrets: any SecretStore) throws -> ServiceDirectory {
        let trust = settings.caCertificate.map { [$0] } ?? []
        let path = settings.mockDatabase ?? stateFolder + "/mock.sqlite"
        let notes = MockOpeningNotes(file: path, secrets: secrets, mailbox: mailbox)
        defer {
            let said = notes.saidOnTheFirstScreen()
            warnings += said.warnings
            losses += said.losses
        }
        let mock = MockHelperTransport.embeddedMock(
            path: path, stateDirectory: stateFolder, secrets: secrets, clock: clock, opened: notes.heard)
        mockHelper = mock
        guard serviceName == "mock" else {
            let server = try HTTPTransport(base: serviceName, insecure: settings.insecure, trustRoots: trust)
            return ServiceDirectory(
                default: FaultInjectingService(wrapping: server, switchboard: faults), mock: { mock },
                faults: faults, insecure: settings.insecure, trustRoots: trust)
        }
        if EmbeddedMockFile.needsSayingAtOnce(path, own: EmbeddedMockFile.isOwn(path, stateDirectory: stateFolder), secrets: secrets) {
            try Blocking.run { try await mock.start() }
        }
        return ServiceDirectory(
            default: FaultInjectingService(wrapping: mock, switchboard: faults), mock: { mock }, runningMock: mock,
            faults: faults, insecure: settings.insecure, trustRoots: trust)
    }

    /// The outbox the QA console shows: the mock's database read directly; a server's
    /// `/dev/outbox` fetched in the background (the console never waits for it).
    func outboxReader(mock: MockHelperTransport?) -> @Sendable () -> [OutboxEntry] {
        if let mock {
            // Read when asked, as the console and a headless run's SMS step expect.
            return { (try? Blocking.run { try await mock.outbox() }) ?? [] }
        }
        guard
            let server = try? HTTPTransport(
                base: serviceName, insecure: settings.insecure, trustRoots: settings.caCertificate.map { [$0] } ?? [])
        else { return { [] } }
        let remote = RemoteOutbox(server: server)
        return { remote.latest() }
    }
}

/// A server's outbox for the QA console: the last list fetched, and a fetch in the
/// background for the next look.
final class RemoteOutbox: Sendable {
    private let server: HTTPTransport
    private let entries = Mutex<[OutboxEntry]>([])

    init(server: HTTPTransport) {
        self.server = server
    }

    func latest() -> [OutboxEntry] {
        Task.detached { [self] in
            if let fetched = try? await server.outbox() { entries.withLock { $0 = fetched } }
        }
        return entries.withLock { $0 }
    }
}
