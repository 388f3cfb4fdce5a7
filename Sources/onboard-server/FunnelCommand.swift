import FunnelText
import ArgumentParser
import Foundation
import InputRules
import Installation
import Logging
import OnboardServer
import OnboardService
import PostgresStore
import ServiceAPI
import Suggestion

/// `onboard-server funnel FLOW`: the funnel read straight from the store the server
/// uses, for an operator at the server's machine.
struct FunnelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "funnel",
        abstract: "Where people stop in a flow: each screen reached, left and dropped, from the store's analytics.",
        discussion:
            "Reads the same store the server uses (--db or --database, or --config's file). One person is one run of the flow on one device."
    )

    @Argument(help: "The flow: oklah, babybasics, abby, rucktracker, miga (or a custom flow's id).")
    var flow: String

    @Option(help: "The window: 7d (the default), 24h, 90m, or an RFC 3339 instant like 2026-11-01T00:00:00Z.")
    var since = "7d"

    @Flag(name: .customLong("by-version"), help: "Split by the flow's onboarding_flow_version too (MIGA's remote config).")
    var byVersion = false

    @Flag(help: "The report as JSON.")
    var json = false

    @Flag(help: "The steps as CSV.")
    var csv = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if json, csv { throw ValidationError("--json and --csv: one or the other") }
    }

    func run() async throws {
        let configuration: ServerConfiguration
        do throws(ConfigurationFile.Problems) {
            var layers = try store.layers(environment: ProcessInfo.processInfo.environment)
            configuration = store.configuration(&layers).configuration
            guard layers.problems.isEmpty else { throw ConfigurationFile.Problems(lines: layers.problems) }
        } catch {
            throw ValidationError(error.description)
        }
        if configuration.postgres == nil, !FileManager.default.fileExists(atPath: configuration.databasePath) {
            throw ValidationError("--db: there is no database at \(configuration.databasePath)")
        }
        var logger = Logger(label: "onboard-server")
        logger.logLevel = .error
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        guard let start = FunnelText.since(since, now: now) else {
            throw ValidationError("--since '\(since)' is not like 7d, 24h, 90m or 2026-11-01T00:00:00Z")
        }
        let report: FunnelReport
        do {
            let service = try await OnboardServer.openService(configuration, settings: ServiceSettings(), logger: logger)
            report = try await service.funnel(flow: flow, since: start, byVersion: byVersion)
        } catch let error as DatabaseUnavailable {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(69)
        }
        // A flow no event names, and none that ships: most likely a slip of the keyboard,
        // which "0 started" would hide.
        if report.started == 0, !builtinFlowIDs.contains(flow) {
            let hint =
                Suggestion.closest(to: flow, in: builtinFlowIDs).map { "did you mean '\($0)'?" }
                ?? "the built-in flows are " + builtinFlowIDs.joined(separator: ", ")
            FileHandle.standardError.write(
                Data(
                    "onboard-server funnel: no events name a flow '\(flow)' since \(report.since); \(hint) (a custom flow is named by its id)\n"
                        .madeInert().utf8))
            throw ExitCode(1)
        }
        let text = json ? FunnelText.json(report) : csv ? FunnelText.csv(report) : FunnelText.table(report)
        // Events are clients' words: made inert for the operator's terminal, as every
        // screen's are (the service refuses controls at the door; older rows are checked here).
        FileHandle.standardOutput.write(Data(text.madeInert().utf8))
    }
}
