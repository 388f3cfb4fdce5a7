import ArgumentParser
import FoundationEssentials
import InputRules
import Installation
import OnboardRuntime
import ScreenTable
import SessionZygote

public struct Onboard: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "onboard",
        abstract: "Terminal onboarding: walk the built-in flows against an embedded mock service.",
        discussion: """
            With no subcommand, shows a picker of the built-in flows.
            Keys: Tab/Shift-Tab or Up/Down move focus, Left/Right move along buttons,
            Enter activates, Esc goes back where the flow allows, Ctrl-G (or F12) opens
            the QA console, Ctrl-Z suspends, Ctrl-C quits.

            Guides (every key, QA's recipes, demos, flow files): /usr/share/doc/onboard/
            once installed, docs/ in the source.
            """,
        version: OnboardVersion.full,
        subcommands: [
            Pick.self, Run.self, Flows.self, ThemesCommand.self, Lint.self, Graph.self, SchemaCommand.self, CoverageCommand.self,
            Reset.self, SecretsCommand.self, OutboxCommand.self, FunnelCommand.self, ServeSSH.self, ServeWeb.self, GalleryCommand.self,
        ],
        defaultSubcommand: Pick.self
    )

    public init() {}

    /// Runs the command line with `tools`: none in `onboard`, which hands a command that
    /// needs them on to `onboard-files` before it does anything else.
    ///
    /// `onboard --help` says what `onboard` alone takes (the picker's options: `onboard
    /// --state-dir D --accessible` works), then the subcommands, not the subcommands alone.
    public static func main(tools: (any FileTools)?) {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // A demo server's zygote is `onboard`, which has no file tools to carry over.
        if tools == nil, arguments.first == SessionZygote.flag {
            let sessions = Array(arguments.dropFirst())
            SessionZygote.serve(warmUp: { warmUp(on: sessions) }) { main(tools: nil, arguments: $0) }
        }
        main(tools: tools, arguments: arguments)
    }

    /// Runs `arguments` (the command line after the program's name).
    static func main(tools: (any FileTools)?, arguments: [String]) {
        InstalledFileTools.current = tools
        if [["--help"], ["-h"], ["help"]].contains(arguments) { return print(overview()) }
        // Asked for by scripts: said before the command tree is built by reflection (a
        // quarter of a start), the same line ArgumentParser prints.
        if arguments == ["--version"] { return print(OnboardVersion.full) }
        do {
            let environment = ProcessInfo.processInfo.environment
            if let line = PlainRunLine(arguments, environment: environment) { return try line.run(environment: environment) }
            var command = try parsedByItsCommand(arguments) ?? parseAsRoot(arguments)
            if tools == nil, (command as? UsesFileTools)?.needsFileTools == true { try InstalledFileTools.handOn(arguments) }
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The command lines started most — `run ID …`, `pick …`, and `onboard` with the
    /// picker's options (people, and each demo session) — parsed by that command alone:
    /// ArgumentParser then skips building the tree and checking each subcommand for
    /// pass-through arguments by reflection (measured in `benchmarks/README.md`). It is
    /// the same parser on the same declarations; a line it does not take as that command
    /// (help, a completion script, a mistake) is parsed from the root as before, so what is
    /// printed is the root's.
    static func parsedByItsCommand(_ arguments: [String]) -> (any ParsableCommand)? {
        let (command, rest): (any ParsableCommand.Type, ArraySlice<String>)
        switch arguments.first {
        case Run.configuration.commandName: (command, rest) = (Run.self, arguments.dropFirst())
        case Pick.configuration.commandName: (command, rest) = (Pick.self, arguments.dropFirst())
        // `onboard` alone, or with the picker's options: the default subcommand.
        case let first where first?.hasPrefix("-") ?? true: (command, rest) = (Pick.self, arguments[...])
        default: return nil
        }
        guard let parsed = try? command.parseAsRoot(Array(rest)), type(of: parsed) == command else { return nil }
        return parsed
    }

    /// A demo server's zygote, before it forks sessions run with `arguments`: their
    /// command line read once as each session will read it (a state folder added, as the
    /// server adds each session's; ArgumentParser only for a line `PlainRunLine` does not
    /// take) and the built-in flows built, so the runtime has met their types. Nothing is
    /// run, and nothing read from the environment or the disk (a session's own comes with it).
    private static func warmUp(on arguments: [String]) {
        let line = arguments + ["--state-dir", "/nonexistent/onboard-zygote"]
        if PlainRunLine(line, environment: [:]) == nil { _ = parsedByItsCommand(line) }
        _ = BuiltinFlows.ids.map { try? BuiltinFlows.load($0) }
    }

    private static func overview() -> String {
        let root = helpMessage()
        let pick = helpMessage(for: Pick.self).replacing("USAGE: onboard pick", with: "USAGE: onboard")
        let overview = root.firstRange(of: "USAGE:").map { String(root[..<$0.lowerBound]) } ?? ""
        let options = pick.firstRange(of: "USAGE:").map { String(pick[$0.lowerBound...]) } ?? ""
        let subcommands = root.firstRange(of: "SUBCOMMANDS:").map { String(root[$0.lowerBound...]) } ?? ""
        return [overview, options, subcommands].map { String($0.trimmingWhitespace) }.joined(separator: "\n\n")
    }
}
