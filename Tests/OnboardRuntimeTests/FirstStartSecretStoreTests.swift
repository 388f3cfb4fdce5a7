import EmbeddedMock
import FlowEngine
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient
import Testing

@testable import OnboardCommands

/// A first start's `auto` secret store is chosen when a secret is first needed, after the
/// first screen (`DeferredSecretStore`): choosing probes the keyring and writes and syncs
/// the folder's `secret-store`. Describing the store (how its secrets are lost) chooses it
/// too, so nothing on the way to the first screen asks unless it has a loss to say. Found
/// by strace while measuring a demo session's start (issue 50): two places asked at once.
@Suite struct FirstStartSecretStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("first-start-\(UUID().uuidString)").path
    var marker: String { folder + "/secret-store" }

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @Test func aLaunchWithNothingLostLeavesTheStoreUnchosen() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = StateStore(
            stateDirectory: folder, flowID: "oklah", secrets: DeferredSecretStore(stateDirectory: folder, environment: [:]))
        let service = InProcessTransport(service: try OnboardService(database: try ServiceDatabase.inMemory()))
        let session = FlowSession(
            engine: FlowEngine(flow: try BuiltinFlows.load("oklah")), store: store,
            operations: OperationRunner(service: service, flowID: "oklah"), clock: RuntimeClock(), mailbox: Mailbox())
        session.launch(deferringEffects: true)  // as the runner does, to draw the first screen first
        #expect(session.state.screenID == "privacy")
        #expect(!FileManager.default.fileExists(atPath: marker), "chosen before the first screen")
    }

    /// Two windows on a new folder choose its store at once (a desktop terminal, where the
    /// keyring answers, and an SSH shell, where it does not): they agree on one, or each
    /// would make a data key of its own. The other window here holds the choice's lock and
    /// records the private file; this one waits, then follows it rather than choosing.
    @Test func aChoiceMadeWhileAnotherWindowChoosesFollowsIt() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lock = open(folder + "/.secret-store.lock", O_RDWR | O_CREAT, 0o600)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        let store = DeferredSecretStore(stateDirectory: folder, environment: [:])
        let chosen = DispatchSemaphore(value: 0)
        Thread {
            _ = store.summary  // its first question chooses
            chosen.signal()
        }.start()
        let waited = chosen.wait(timeout: .now() + 0.3) == .timedOut
        #expect(waited, "it waits for the other window's choice")
        try SecretHome.file.record(stateDirectory: folder)
        flock(lock, LOCK_UN)
        if waited { #expect(chosen.wait(timeout: .now() + 30) == .success, "it chose once the other window had") }
        #expect(store.takeNotice() == nil, "followed the recorded store, not a choice of its own")
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == "file\n")
    }

    @Test func theMocksOpeningNotesChooseTheStoreOnlyWhenALossIsSaid() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mailbox = Mailbox()
        let notes = MockOpeningNotes(
            file: folder + "/mock.sqlite", secrets: DeferredSecretStore(stateDirectory: folder, environment: [:]), mailbox: mailbox)
        #expect(!FileManager.default.fileExists(atPath: marker), "chosen before the first screen")
        #expect(notes.saidOnTheFirstScreen().losses.isEmpty)

        notes.heard(MockHelperFrame.Opened(lostAs: "mock.sqlite.sealed-1"))
        let said = mailbox.drain().compactMap { event -> String? in
            if case .storageFailed(let note) = event { return note }
            return nil
        }
        #expect(said.count == 1 && said[0].contains("mock.sqlite.sealed-1"), "\(said)")
        // No session bus here: the private file, and the choice recorded.
        #expect(said.first?.contains(FileSecretStore(stateDirectory: folder).howSecretsAreLost) == true, "\(said)")
        #expect(FileManager.default.fileExists(atPath: marker))
    }
}
