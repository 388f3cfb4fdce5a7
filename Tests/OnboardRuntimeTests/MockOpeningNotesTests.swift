import FlowEngine
import Foundation
import OnboardRuntime
import ServiceAPI
import Testing

@testable import OnboardCommands

/// The embedded mock's opening notes leave an `auto` secret store unchosen until a loss is
/// said: choosing probes the keyring and writes and syncs the folder's `secret-store`, which
/// a first start leaves until after its first screen (`DeferredSecretStore`). Found by
/// strace while measuring a demo session's start (issue 50): the notes asked at once.
@Suite struct MockOpeningNotesTests {
    @Test func aFirstStartsSecretStoreIsChosenOnlyWhenALossIsSaid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let marker = folder + "/secret-store"
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
