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
            """,
        version: OnboardVersion.full,
        subcommands: [Pick.self, Run.self, Flows.self, ThemesCommand.self, Lint.self, Graph.self, SchemaCommand.self, CoverageCommand.self, Reset.self, SecretsCommand.self, OutboxCommand.self, FunnelCommand.self, ServeSSH.self],
        defaultSubcommand: Pick.self
    )
}
