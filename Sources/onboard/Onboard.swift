import ArgumentParser
import Installation
import OnboardRuntime

@main
struct Onboard: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    /// `onboard --help` says what `onboard` alone takes (the picker's options: `onboard
    /// --state-dir D --accessible` works), then the subcommands, not the subcommands alone.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard [["--help"], ["-h"], ["help"]].contains(arguments) else { return main(nil) }
        let root = helpMessage()
        let pick = helpMessage(for: Pick.self).replacingOccurrences(of: "USAGE: onboard pick", with: "USAGE: onboard")
        let overview = root.range(of: "USAGE:").map { String(root[..<$0.lowerBound]) } ?? ""
        let options = pick.range(of: "USAGE:").map { String(pick[$0.lowerBound...]) } ?? ""
        let subcommands = root.range(of: "SUBCOMMANDS:").map { String(root[$0.lowerBound...]) } ?? ""
        print([overview, options, subcommands].map { $0.trimmingCharacters(in: .newlines) }.joined(separator: "\n\n"))
    }
}
