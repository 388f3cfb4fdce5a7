import ServiceClient
import ArgumentParser
import FoundationEssentials
import Installation
import OnboardRuntime
import TerminalUI

struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Forget a flow's session, progress and analytics; with no flow, every flow's and the mock service's data.")

    @Argument(help: "A flow id; omit to reset everything.")
    var flow: String?

    @OptionGroup var folder: FolderOption
    @OptionGroup var local: LocalDataOptions

    func run() throws {
        let folder = self.folder.stateFolder()
        // Wherever this folder's secrets may be, without making any (a data key) to delete.
        let (stores, leftBehind) = try local.settings.secretStoreMode().storesToClear(
            stateDirectory: folder, environment: ProcessInfo.processInfo.environment)
        func forget(_ flowID: String) throws {
            for store in stores { try StateStore(stateDirectory: folder, flowID: flowID, secrets: store).reset() }
        }
        if let flow {
            // The flow's state for every service it was used with.
            let kept = ServiceFolders.all(stateDirectory: folder, flowID: flow).map { PathText.name(of: $0) }
            for name in kept.isEmpty ? [flow] : kept { try forget(name) }
            try finish("Reset \(flow) in \(folder)", leftBehind: leftBehind, items: "onboard/\(flow)/\(folder)")
            return
        }
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            var isDirectory = false
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
                try forget(name)
                // Everything else of it too: rucks and device tokens kept here, caches, and
                // what QA has seen (`coverage/`), as "reset everything" says.
                try manager.removeItem(atPath: path)
            }
        }
        try StateStore.forgetSecrets(stateDirectory: folder, in: stores)
        SecretHome.forget(stateDirectory: folder)
        let mock = local.mockDatabase ?? folder + "/mock.sqlite"
        for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: mock + suffix) {
            try manager.removeItem(atPath: mock + suffix)
        }
        try finish("Reset every flow and the mock service in \(folder)", leftBehind: leftBehind, items: "onboard/*/\(folder)")
    }

    /// Says what was reset; keyring items out of reach are named with how to remove them,
    /// and the command exits 1, since not everything is gone.
    private func finish(_ done: String, leftBehind: String?, items: String) throws {
        guard let leftBehind else {
            print("\(done).")
            return
        }
        let folder = self.folder.stateFolder()
        print(
            """
            \(done), except its secrets in the system keyring, which cannot be reached here: \(leftBehind)
            They are left there, labelled \(items). Remove them from your desktop session with \
            `onboard reset \(flow.map { "\($0) " } ?? "")--state-dir \(folder)`, or \
            `secret-tool clear application onboard state_dir \(folder)\(flow.map { " flow \($0)" } ?? "")`.
            """)
        throw ExitCode(1)
    }
}

/// `onboard outbox`: the SMS and invite codes the embedded mock has sent, newest last,
/// so QA can type the code a screen asks for. (`onboard-server --dev` serves its own at
/// `/api/v1/dev/outbox`.)
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox", abstract: "Show the codes the embedded mock has sent (SMS and invites).")

    @Option(help: "Show only the last N.")
    var last: Int?

    @OptionGroup var folder: FolderOption
    @OptionGroup var local: LocalDataOptions

    func run() throws {
        let folder = self.folder.stateFolder()
        let path = local.mockDatabase ?? folder + "/mock.sqlite"
        guard FileManager.default.fileExists(atPath: path) else {
            print("Nothing sent yet: there is no mock database at \(path).")
            return
        }
        // The folder's own mock keeps destinations sealed with the folder's key.
        let mock = MockHelperTransport.embeddedMock(
            path: path, stateDirectory: folder, secrets: try local.settings.openSecretStore(stateFolder: folder), clock: RuntimeClock())
        let entries = try Blocking.run { try await mock.outbox() }
        if entries.isEmpty { print("Nothing sent yet.") }
        let shown = last.map { Array(entries.suffix(max(0, $0))) } ?? entries
        for entry in shown {
            let when = Date(timeIntervalSince1970: TimeInterval(entry.createdAt)).formatted(.iso8601)
            // What the database holds is printed inert (TerminalText), as every screen is.
            print(
                TerminalText.safe(
                    "\(when)  \(entry.kind.padded(to: 6)) \(entry.destination)  \(entry.code)"))
        }
    }
}

/// `onboard secrets`: where a state folder keeps its tokens and encryption key, and a way to
/// move them (to the private file, so a shell with no keyring can open the folder, or back).
struct SecretsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets",
        abstract: "Show where a state folder keeps its tokens and encryption key, or move them.",
        subcommands: [Show.self, Move.self],
        defaultSubcommand: Show.self
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Say where this folder's secrets are and whether they can be reached from here.")

        @OptionGroup var folder: FolderOption

        func run() throws {
            let folder = self.folder.stateFolder()
            guard let home = SecretHome.recorded(stateDirectory: folder) else {
                print("\(folder) keeps no secrets yet.")
                return
            }
            do {
                _ = try SecretStoreMode.auto.openHome(home, stateDirectory: folder, environment: ProcessInfo.processInfo.environment)
                print(
                    "\(folder) keeps its tokens and encryption key in \(home == .file ? FileSecretStore(stateDirectory: folder).summary : home.name)."
                )
            } catch let error as SecretStoreError {
                print(error.description)
                throw ExitCode(1)
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move this folder's tokens and encryption key to the keyring or to a private file.")

        @Option(help: "Where to: keyring or file.")
        var to: SecretHome

        @OptionGroup var folder: FolderOption

        func run() throws {
            let folder = self.folder.stateFolder()
            let before = SecretHome.recorded(stateDirectory: folder)
            do {
                let moved = try to.move(stateDirectory: folder, environment: ProcessInfo.processInfo.environment)
                print(
                    before == to
                        ? "\(folder) already keeps its secrets in \(to.name)."
                        : "Moved \(moved) secret\(moved == 1 ? "" : "s") of \(folder) to \(to.name).")
            } catch let error as SecretStoreError {
                print(error.description)
                throw ExitCode(1)
            }
        }
    }
}

extension SecretHome: ExpressibleByArgument {}
