import Dispatch
import InputRules
import OnboardRuntime
import FunnelText
import ArgumentParser
import FoundationEssentials
import ServiceAPI
import ServiceClient
import Synchronization
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `onboard funnel FLOW`: where people stop in a flow, drawn as bars: from the embedded
/// mock's database (QA's walks on this machine), or from an onboard-server with the
/// operator's admin token.
struct FunnelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "funnel",
        abstract: "Show where people stop in a flow: each screen's reach and drop-off as bars.",
        discussion: """
            Without --service, the embedded mock's analytics (the walks made on this machine). \
            With --service URL, onboard-server's /api/v1/admin/funnel, with the admin token from \
            $ONBOARD_ADMIN_TOKEN or --admin-token-file. One person is one run of the flow on one device.
            """)

    @Argument(help: "The flow: oklah, babybasics, abby, rucktracker, miga (or a custom flow's id).")
    var flow: String

    @Option(help: "The window: 7d (the default), 24h, 90m, or an RFC 3339 instant like 2026-11-01T00:00:00Z.")
    var since = "7d"

    @Flag(name: .customLong("by-version"), help: "Split by onboarding_flow_version too (MIGA's remote config).")
    var byVersion = false

    @Flag(help: "The report as JSON.")
    var json = false

    @Option(
        name: .customLong("admin-token-file"),
        help: "A file whose first line is onboard-server's admin token (default: $ONBOARD_ADMIN_TOKEN).")
    var adminTokenFile: String?

    @OptionGroup var folder: FolderOption
    @OptionGroup var local: LocalDataOptions
    @OptionGroup var connection: ServiceOptions

    func run() throws {
        let report = try connection.settings.serviceName() == "mock" ? fromMock() : fromServer()
        // A server's words are drawn inert, as every screen's are.
        if json {
            print(TerminalText.safe(FunnelText.json(report)), terminator: "")
        } else {
            let glyphs: Glyphs = TextMetrics.prepareLocale() == .utf8 ? .unicode : .plain
            print(TerminalText.safe(FunnelBars(glyphs: glyphs, width: TerminalWidth.columns()).draw(report)), terminator: "")
        }
    }

    private func fromMock() throws -> FunnelReport {
        let folder = folder.stateFolder()
        let path = local.mockDatabase ?? folder + "/mock.sqlite"
        guard FileManager.default.fileExists(atPath: path) else {
            throw ValidationError("No walks yet: there is no mock database at \(path).")
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        guard let start = FunnelText.since(since, now: now) else {
            throw ValidationError("--since '\(since)' is not like 7d, 24h, 90m or 2026-11-01T00:00:00Z")
        }
        let mock = MockHelperTransport.embeddedMock(
            path: path, stateDirectory: folder, secrets: try local.settings.openSecretStore(stateFolder: folder), clock: RuntimeClock())
        let (flow, byVersion) = (flow, byVersion)
        return try Blocking.run { try await mock.funnel(flow: flow, since: start, byVersion: byVersion) }
    }

    private func fromServer() throws -> FunnelReport {
        let environment = ProcessInfo.processInfo.environment
        let token: String
        if let adminTokenFile {
            guard let line = (try? String(contentsOfFile: adminTokenFile, encoding: .utf8))?.split(whereSeparator: \.isNewline).first else {
                throw ValidationError("--admin-token-file: cannot read \(adminTokenFile)")
            }
            token = String(line).trimmingWhitespace
        } else if let fromEnvironment = environment["ONBOARD_ADMIN_TOKEN"], !fromEnvironment.isEmpty {
            token = fromEnvironment
        } else {
            throw ValidationError("The server's report needs its admin token: set ONBOARD_ADMIN_TOKEN or give --admin-token-file.")
        }
        let transport = try HTTPTransport(
            base: connection.settings.serviceName(), insecure: connection.insecure, trustRoots: connection.caCertificate.map { [$0] } ?? [])
        let (flow, since, byVersion) = (flow, since, byVersion)
        do {
            return try Blocking.run { try await transport.funnel(flow: flow, since: since, byVersion: byVersion, adminToken: token) }
        } catch let error as ServiceError {
            throw ValidationError(TerminalText.safe(error.message))
        }
    }
}

/// Waits on the main thread for async work (a command's one call).
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>>(.failure(CancellationError()))
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }.get()
    }
}

/// The terminal's width for printed output: the window's, else `COLUMNS`, else 80.
enum TerminalWidth {
    static func columns() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
    }
}
