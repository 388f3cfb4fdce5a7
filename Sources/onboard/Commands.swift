import ArgumentParser
import Foundation
import OnboardRuntime
import ScreenTable

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
        let launcher = Launcher(options: options)
        defer { launcher.close() }
        let (ending, state) = try launcher.runPicker(picker)
        try Launcher.exit(for: ending)
        guard let chosen = state.context["flow"]?.text, let index = labels.firstIndex(of: chosen) else { return }
        try Launcher.exit(for: launcher.run(flows[index]))
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run one flow: a built-in id, or a flow file with --flow.")

    @Argument(help: "A built-in flow id (see 'onboard flows').")
    var flow: String?

    @Option(name: .customLong("flow"), help: "Run the flow in this file instead of a built-in one.")
    var flowFile: String?

    @OptionGroup var options: RunOptions

    func run() throws {
        let flow = try loadFlow(id: self.flow, file: flowFile)
        let launcher = Launcher(options: options)
        defer { launcher.close() }
        try Launcher.exit(for: launcher.run(flow))
    }
}

struct Flows: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the built-in flows.")

    func run() throws {
        for id in BuiltinFlows.ids {
            let flow = try BuiltinFlows.load(id)
            print("\(id.padding(toLength: 12, withPad: " ", startingAt: 0)) \(flow.title) — \(flow.summary)")
        }
    }
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check flow files; print each problem as file:line:column and exit 1 if any.")

    @Argument(help: "Flow files (YAML).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
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

    @OptionGroup var options: RunOptions

    func run() throws {
        let folder = options.stateFolder()
        if let flow {
            try StateStore(stateDirectory: folder, flowID: flow).reset()
            print("Reset \(flow) in \(folder).")
            return
        }
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                try StateStore(stateDirectory: folder, flowID: name).reset()
            }
        }
        let mock = options.mockDatabase ?? folder + "/mock.sqlite"
        for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: mock + suffix) {
            try manager.removeItem(atPath: mock + suffix)
        }
        print("Reset every flow and the mock service in \(folder).")
    }
}
