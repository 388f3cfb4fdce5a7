import EmbeddedMock
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient
import Synchronization

/// Where a run's calls go: the embedded mock (sealed with the state folder's key when it
/// is the folder's own) or an onboard-server, with the QA faults around either, and the
/// outbox the QA console reads from the one in use.
extension Launcher {
    /// Where calls go: the service Onboard was started with (the embedded mock over its
    /// SQLite file, or an onboard-server), and whatever address a flow names; the QA
    /// faults wrap each. With a server, the mock's file is opened (and made) only if a
    /// flow asks for `mock://local`.
    func makeServices(stateFolder: String, secrets: any SecretStore) throws -> ServiceDirectory {
        let trust = options.caCertificate.map { [$0] } ?? []
        let path = options.mockDatabase ?? stateFolder + "/mock.sqlite"
        // The folder's own mock is sealed with its key; a shared `--mock-db` is not (see ColumnSealer).
        let sealer =
            ColumnSealer.isOwnMock(path, stateDirectory: stateFolder) ? ColumnSealer.forStateFolder(stateFolder, secrets: secrets) : nil
        let clock = self.clock
        guard options.serviceName == "mock" else {
            let server = try HTTPTransport(base: options.serviceName, insecure: options.insecure, trustRoots: trust)
            return ServiceDirectory(
                default: FaultInjectingService(wrapping: server, switchboard: faults),
                mock: { try Self.openMock(path: path, sealer: sealer, clock: clock).mock },
                faults: faults, insecure: options.insecure, trustRoots: trust)
        }
        let mock: LazyMock
        if FileManager.default.fileExists(atPath: path) {
            // Opened now: a damaged file is set aside and said on the first screen.
            let (opened, warning, loss) = try Self.openMock(path: path, sealer: sealer, clock: clock)
            if let warning { warnings.append(warning) }
            if let loss { losses.append(loss) }
            mock = LazyMock(opened: opened)
        } else {
            // Nothing there to check: the file is made on the first call, after the first screen.
            mock = LazyMock { try Self.openMock(path: path, sealer: sealer, clock: clock).mock }
        }
        return ServiceDirectory(
            default: FaultInjectingService(wrapping: mock, switchboard: faults), mock: { mock }, runningMock: mock,
            faults: faults, insecure: options.insecure, trustRoots: trust)
    }

    /// The embedded mock over its SQLite file (`MockDatabaseFile`); what the folder's key
    /// sealed and can no longer open is said with the progress it also sealed, in one
    /// note (`SealedLoss`).
    static func openMock(
        path: String, sealer: ColumnSealer?, clock: RuntimeClock
    ) throws -> (mock: InProcessTransport, warning: String?, loss: SealedLoss?) {
        try AtomicFile.makePrivateDirectory((path as NSString).deletingLastPathComponent)
        let opened = try MockDatabaseFile.open(path: path, sealer: sealer, clock: clock)
        let loss = opened.lostAs.map {
            SealedLoss(what: "the embedded mock's accounts (\((path as NSString).lastPathComponent))", keptAs: $0)
        }
        return (opened.mock, opened.warning, loss)
    }

    /// The outbox the QA console shows: the mock's database read directly; a server's
    /// `/dev/outbox` fetched in the background (the console never waits for it).
    func outboxReader(mock: LazyMock?) -> @Sendable () -> [OutboxEntry] {
        if let mock {
            return { (try? mock.transport())?.service.outboxSnapshot() ?? [] }
        }
        guard
            let server = try? HTTPTransport(
                base: options.serviceName, insecure: options.insecure, trustRoots: options.caCertificate.map { [$0] } ?? [])
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
