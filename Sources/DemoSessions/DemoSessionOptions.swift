import ArgumentParser
import Foundation
import Installation

/// What each session of a demo server runs, as `serve-ssh` and `serve-web` both take it.
public struct DemoSessionOptions: ParsableArguments {
    @Option(help: "Run this built-in flow in each session instead of the picker.")
    public var flow: String?

    @Option(name: .customLong("max-sessions"), help: "Sessions at once; the next is told the demo is full.")
    public var maxSessions = 50

    @Option(help: "The service each session uses: 'mock' (each session its own embedded mock) or an onboard-server address.")
    public var service = "mock"

    @Flag(name: .customLong("shared-mock"), help: "All sessions share one embedded mock, e.g. for Baby Basics' invite between two people.")
    public var sharedMock = false

    @Option(name: .customLong("state-dir"), help: "Where sessions keep their state while they run (default: the usual state folder).")
    public var stateDirectory: String?

    public init() {}

    public func validate() throws {
        guard maxSessions >= 1 else { throw ValidationError("--max-sessions must be at least 1") }
        if let flow, !builtinFlowIDs.contains(flow) {
            throw ValidationError("--flow: no built-in flow '\(flow)' (\(builtinFlowIDs.joined(separator: ", ")))")
        }
    }

    public var stateFolder: String { StateFolder.path(stateDirectory, environment: ProcessInfo.processInfo.environment) }

    /// Each session's `onboard` arguments, before its own `--state-dir`; `sharedMockFile`
    /// names the shared mock's file in the state folder.
    public func sessionArguments(sharedMockFile: String) -> [String] {
        var arguments = flow.map { ["run", $0] } ?? ["pick"]
        if service != "mock" { arguments += ["--service", service] }
        if sharedMock { arguments += ["--mock-db", stateFolder + "/" + sharedMockFile] }
        return arguments
    }

    /// "the oklah flow", or "the flow picker".
    public var shown: String { flow.map { "the \($0) flow" } ?? "the flow picker" }
}
