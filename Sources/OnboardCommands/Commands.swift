import ArgumentParser
import FlowEngine
import FoundationEssentials
import Installation
import OnboardRuntime
import ScreenTable
import TerminalUI

/// `onboard` alone: pick a built-in flow, then run it.
struct Pick: ParsableCommand, UsesFileTools {
    static let configuration = CommandConfiguration(
        commandName: "pick", abstract: "Pick a built-in flow and run it (the default).", shouldDisplay: false)

    @OptionGroup var options: RunOptions

    var needsFileTools: Bool { options.settings.readsFiles }

    func run() throws {
        try Pick.run(options.settings)
    }

    /// The picker, then the flow picked.
    static func run(_ settings: RunSettings, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let flows = try BuiltinFlows.ids.map { try BuiltinFlows.load($0) }
        let labels = flows.map { "\($0.title) — \($0.summary)" }
        let picker = Flow(
            id: "picker", title: "Onboard",
            entry: Entry(firstLaunch: "pick", resume: false),
            screens: [
                Screen(
                    id: "pick", kind: .choice, title: "Onboard",
                    body: "Choose an onboarding flow to walk through.",
                    choice: Choice(options: .fixed(labels), store: "flow", then: .quit), resumable: false)
            ])
        let launcher = try Launcher(settings: settings, environment: environment)
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

struct Run: ParsableCommand, UsesFileTools {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run one flow: a built-in id, or a flow file with --flow.")

    @Argument(help: "A built-in flow id (see 'onboard flows').")
    var flow: String?

    @Option(name: .customLong("flow"), help: "Run the flow in this file instead of a built-in one.")
    var flowFile: String?

    @OptionGroup var options: RunOptions

    var needsFileTools: Bool { flowFile != nil || options.settings.readsFiles }

    func validate() throws {
        // `onboard` hands --watch on; onboard-files, which reads the files, checks it.
        guard let tools = InstalledFileTools.current else { return }
        if options.watch, flowFile == nil,
            options.theme.flatMap({ tools.themeFile($0, environment: ProcessInfo.processInfo.environment) }) == nil
        {
            throw ValidationError("--watch reloads a flow file (--flow FILE) or a theme file (--theme FILE); give one of them")
        }
    }

    func run() throws {
        try Run.run(flow: flow, file: flowFile, settings: options.settings)
    }

    /// One flow: a built-in one by `id`, or the one in `file`.
    static func run(
        flow id: String?, file: String?, settings: RunSettings, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        let flow = try loadFlow(id: id, file: file)
        let launcher = try Launcher(settings: settings, environment: environment)
        launcher.flowFile = file
        defer { launcher.close() }
        let ending = try launcher.run(flow)
        try launcher.finishHeadless()
        try Launcher.exit(for: ending)
    }
}

struct Flows: ParsableCommand, UsesFileTools {
    static let configuration = CommandConfiguration(
        commandName: "flows",
        abstract: "List the built-in flows, or print one's YAML to start a flow file from.",
        discussion: "onboard flows abby > my-abby.yaml; onboard run --flow my-abby.yaml")

    @Argument(help: "A built-in flow id: print its YAML.")
    var flow: String?

    var needsFileTools: Bool { flow != nil }

    func run() throws {
        if let flow {
            guard let yaml = try InstalledFileTools.required().builtinText(for: flow) else {
                printError("onboard: no built-in flow named '\(flow)'; built in: \(BuiltinFlows.ids.joined(separator: ", "))")
                throw ExitCode(1)
            }
            print(yaml, terminator: "")
            return
        }
        for id in BuiltinFlows.ids {
            let flow = try BuiltinFlows.load(id)
            print("\(id.padded(to: 12)) \(flow.title) — \(flow.summary)")
        }
    }
}

struct ThemesCommand: ParsableCommand, UsesFileTools {
    static let configuration = CommandConfiguration(
        commandName: "themes", abstract: "List the themes, or preview one on OKLah's first screen.")

    @Argument(help: "A theme to preview (a name or a file).")
    var theme: String?

    /// The list names the user's own themes, a preview may read one: both read files.
    var needsFileTools: Bool { true }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let tools = try InstalledFileTools.required()
        guard let theme else {
            let themes = tools.themes(environment: environment)
            // The user's are file names: made inert before they reach the terminal.
            for name in themes.names { print(TerminalText.safe(name)) }
            print("Your own: \(themes.userFolder)/NAME.yaml")
            return
        }
        let loaded: Theme
        do {
            // A preview shows the theme asked for, whatever NO_COLOR says.
            loaded = try tools.theme(theme, environment: environment.filter { $0.key != "NO_COLOR" })
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

struct Lint: ParsableCommand, UsesFileTools {
    static let configuration = CommandConfiguration(
        commandName: "lint", abstract: "Check flow files; print each problem as file:line:column and exit 1 if any.")

    @Argument(help: "Flow files (YAML).")
    var files: [String]

    var needsFileTools: Bool { true }

    func run() throws {
        let tools = try InstalledFileTools.required()
        var failed = false
        for file in files {
            guard FileManager.default.fileExists(atPath: file) else {
                // Not a file: a built-in id is checked when Onboard is built; say where its YAML is.
                print(
                    "\(file): "
                        + (BuiltinFlows.ids.contains(file)
                            ? "a built-in flow, not a file; it is checked when Onboard is built. Its YAML: onboard flows \(file) > \(file).yaml"
                            : "no such file"))
                failed = true
                continue
            }
            do {
                let flow = try tools.flow(file: file)
                print("\(file): ok (\(flow.screens.count) screens)")
            } catch let error as FlowFileError {
                print(error.description)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
