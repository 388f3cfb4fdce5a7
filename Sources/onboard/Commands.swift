import ArgumentParser
import FlowEngine
import Foundation
import Installation
import OnboardRuntime
import OnboardService
import ScreenTable
import ServiceAPI
import ServiceClient
import TerminalUI

/// `onboard` alone: pick a built-in flow, then run it.
struct Pick: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pick", abstract: "Pick a built-in flow and run it (the default).", shouldDisplay: false)

    @OptionGroup var options: RunOptions

    func run() throws {
        let flows = try BuiltinFlows.ids.map { try BuiltinFlows.load($0) }
        let labels = flows.map { "\($0.title) — \($0.summary)" }
        let picker = Flow(
            id: "picker", title: "Onboard",
            entry: Entry(firstLaunch: "pick", resume: false),
            screens: [Screen(
                id: "pick", kind: .choice, title: "Onboard",
                body: "Choose an onboarding flow to walk through.",
                choice: Choice(options: .fixed(labels), store: "flow", then: .quit), resumable: false)])
        let launcher = try Launcher(options: options)
        defer { launcher.close() }
        let (ending, state) = try launcher.runPicker(picker)
        try launcher.finishHeadless()
        try Launcher.exit(for: ending)
        guard let chosen = state.context["flow"]?.text, let index = labels.firstIndex(of: chosen) else { return }
        let flowEnding = try launcher.run(flows[index])
        try launcher.finishHeadless()
        try Launcher.exit(for: flowEnding)
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run one flow: a built-in id, or a flow file with --flow.")

    @Argument(help: "A built-in flow id (see 'onboard flows').")
    var flow: String?

    @Option(name: .customLong("flow"), help: "Run the flow in this file instead of a built-in one.")
    var flowFile: String?

    @OptionGroup var options: RunOptions

    func validate() throws {
        if options.watch, flowFile == nil, options.theme.flatMap({ Themes.file($0, environment: ProcessInfo.processInfo.environment) }) == nil {
            throw ValidationError("--watch reloads a flow file (--flow FILE) or a theme file (--theme FILE); give one of them")
        }
    }

    func run() throws {
        let flow = try loadFlow(id: self.flow, file: flowFile)
        let launcher = try Launcher(options: options)
        launcher.flowFile = flowFile
        defer { launcher.close() }
        let ending = try launcher.run(flow)
        try launcher.finishHeadless()
        try Launcher.exit(for: ending)
    }
}

struct Flows: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the built-in flows, or print one's YAML to start a flow file from.",
        discussion: "onboard flows abby > my-abby.yaml; onboard run --flow my-abby.yaml")

    @Argument(help: "A built-in flow id: print its YAML.")
    var flow: String?

    func run() throws {
        if let flow {
            guard let url = BuiltinFlows.url(for: flow), let yaml = try? String(contentsOf: url, encoding: .utf8) else {
                printError("onboard: no built-in flow named '\(flow)'; built in: \(BuiltinFlows.ids.joined(separator: ", "))")
                throw ExitCode(1)
            }
            print(yaml, terminator: "")
            return
        }
        for id in BuiltinFlows.ids {
            let flow = try BuiltinFlows.load(id)
            print("\(id.padding(toLength: 12, withPad: " ", startingAt: 0)) \(flow.title) — \(flow.summary)")
        }
    }
}

struct ThemesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes", abstract: "List the themes, or preview one on OKLah's first screen.")

    @Argument(help: "A theme to preview (a name or a file).")
    var theme: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let theme else {
            for name in Themes.available(environment: environment) { print(name) }
            print("Your own: \(Themes.userFolder(environment: environment))/NAME.yaml")
            return
        }
        let loaded: Theme
        do {
            // A preview shows the theme asked for, whatever NO_COLOR says.
            loaded = try Themes.load(theme, environment: environment.filter { $0.key != "NO_COLOR" })
        } catch {
            printError("onboard: \(error)")
            throw ExitCode(1)
        }
        let glyphs: Glyphs = TextMetrics.prepareLocale() == .utf8 ? .unicode : .plain
        let engine = FlowEngine(flow: try BuiltinFlows.load("oklah"))
        var state = FlowState()
        _ = engine.reduce(&state, .launched(Launch(session: nil, progress: nil, placeholderUserID: "preview")), now: 0)
        let frame = Renderer(glyphs: glyphs).render(engine.view(of: state), width: 60, height: 16)
        print(ANSIPreview.render(frame, theme: loaded), terminator: "")
    }
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check flow files; print each problem as file:line:column and exit 1 if any.")

    @Argument(help: "Flow files (YAML).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            guard FileManager.default.fileExists(atPath: file) else {
                // Not a file: a built-in id is checked when Onboard is built; say where its YAML is.
                print("\(file): " + (BuiltinFlows.ids.contains(file)
                    ? "a built-in flow, not a file; it is checked when Onboard is built. Its YAML: onboard flows \(file) > \(file).yaml"
                    : "no such file"))
                failed = true
                continue
            }
            do {
                let flow = try FlowFiles.load(url: URL(fileURLWithPath: file), displayName: file)
                print("\(file): ok (\(flow.screens.count) screens)")
            } catch let error as FlowFileError {
                print(error.description)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}

struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Forget a flow's session, progress and analytics; with no flow, every flow's and the mock service's data.")

    @Argument(help: "A flow id; omit to reset everything.")
    var flow: String?

    @OptionGroup var folder: FolderOption
    @OptionGroup var local: LocalDataOptions

    func run() throws {
        let folder = self.folder.stateFolder()
        // Wherever this folder's secrets may be, without making any (a data key) to delete.
        let (stores, leftBehind) = try local.secretStoreMode().storesToClear(stateDirectory: folder, environment: ProcessInfo.processInfo.environment)
        func forget(_ flowID: String) throws {
            for store in stores { try StateStore(stateDirectory: folder, flowID: flowID, secrets: store).reset() }
        }
        if let flow {
            // The flow's state for every service it was used with.
            let kept = ServiceFolders.all(stateDirectory: folder, flowID: flow).map { ($0 as NSString).lastPathComponent }
            for name in kept.isEmpty ? [flow] : kept { try forget(name) }
            try finish("Reset \(flow) in \(folder)", leftBehind: leftBehind, items: "onboard/\(flow)/\(folder)")
            return
        }
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
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
        print("""
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
    static let configuration = CommandConfiguration(commandName: "outbox", abstract: "Show the codes the embedded mock has sent (SMS and invites).")

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
        let sealer = ColumnSealer.isOwnMock(path, stateDirectory: folder)
            ? ColumnSealer.forStateFolder(folder, secrets: try local.openSecretStore(stateFolder: folder)) : nil
        let entries = try ServiceDatabase.open(path: path, sealer: sealer).read(OnboardService.outbox(in:))
        if entries.isEmpty { print("Nothing sent yet.") }
        let shown = last.map { Array(entries.suffix(max(0, $0))) } ?? entries
        let time = ISO8601DateFormatter()
        for entry in shown {
            let when = time.string(from: Date(timeIntervalSince1970: TimeInterval(entry.createdAt)))
            // What the database holds is printed inert (TerminalText), as every screen is.
            print(TerminalText.safe("\(when)  \(entry.kind.padding(toLength: 6, withPad: " ", startingAt: 0)) \(entry.destination)  \(entry.code)"))
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
        static let configuration = CommandConfiguration(abstract: "Say where this folder's secrets are and whether they can be reached from here.")

        @OptionGroup var folder: FolderOption

        func run() throws {
            let folder = self.folder.stateFolder()
            guard let home = SecretHome.recorded(stateDirectory: folder) else {
                print("\(folder) keeps no secrets yet.")
                return
            }
            do {
                _ = try SecretStoreMode.auto.openHome(home, stateDirectory: folder, environment: ProcessInfo.processInfo.environment)
                print("\(folder) keeps its tokens and encryption key in \(home == .file ? FileSecretStore(stateDirectory: folder).summary : home.name).")
            } catch let error as SecretStoreError {
                print(error.description)
                throw ExitCode(1)
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move this folder's tokens and encryption key to the keyring or to a private file.")

        @Option(help: "Where to: keyring or file.")
        var to: SecretHome

        @OptionGroup var folder: FolderOption

        func run() throws {
            let folder = self.folder.stateFolder()
            let before = SecretHome.recorded(stateDirectory: folder)
            do {
                let moved = try to.move(stateDirectory: folder, environment: ProcessInfo.processInfo.environment)
                print(before == to
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
