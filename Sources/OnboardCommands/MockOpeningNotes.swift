import FlowEngine
import FoundationEssentials
import Installation
import OnboardRuntime
import ServiceAPI
import Synchronization

/// What the embedded mock found opening its file (a damaged file set aside, accounts
/// sealed with a key this folder no longer has), said where the person reads it: on the
/// first screen when the launch waited for it, on the screen shown when it came later.
final class MockOpeningNotes: Sendable {
    private let file: String
    /// Asked only when a loss is said: asking an `auto` store chooses it (a keyring probe,
    /// a marker written and synced), which a first start leaves until after its first screen.
    private let secrets: any SecretStore
    private let mailbox: Mailbox
    /// Until the first screen: what was heard, kept for it. After: nil, and each note posted.
    private let forFirstScreen = Mutex<(warnings: [String], losses: [SealedLoss])?>(([], []))

    init(file: String, secrets: any SecretStore, mailbox: Mailbox) {
        self.file = file
        self.secrets = secrets
        self.mailbox = mailbox
    }

    @Sendable func heard(_ opened: MockHelperFrame.Opened) {
        let loss = opened.lostAs.map {
            SealedLoss(what: "the embedded mock's accounts (\(PathText.name(of: file)))", keptAs: $0)
        }
        let keptForTheFirstScreen = forFirstScreen.withLock { kept in
            guard kept != nil else { return false }
            if let warning = opened.warning { kept?.warnings.append(warning) }
            if let loss { kept?.losses.append(loss) }
            return true
        }
        guard !keptForTheFirstScreen else { return }
        let posted =
            [opened.warning].compactMap { $0 }
            + (loss.map { [SealedLoss.said([$0], howLost: secrets.howSecretsAreLost, stillSignedIn: false)] } ?? [])
        for note in posted { mailbox.post(.storageFailed(note)) }
    }

    /// What the first screen says; anything heard later is posted to the screen shown.
    func saidOnTheFirstScreen() -> (warnings: [String], losses: [SealedLoss]) {
        forFirstScreen.withLock { kept in
            defer { kept = nil }
            return kept ?? ([], [])
        }
    }
}
