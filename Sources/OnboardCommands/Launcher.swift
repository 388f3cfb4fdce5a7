import ArgumentParser
import CivilCalendar
import CursesBackend
import FlowEngine
import FoundationEssentials
import Installation
import OnboardRuntime
import ScreenTable
import ServiceAPI
import ServiceClient
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Builds what a run needs — terminal, theme, service, state — runs flows on it, and
/// always gives the terminal back.
final class Launcher {
    let settings: RunSettings
    /// The environment, read once for the whole run.
    let environment: [String: String]
    /// `mock`, or the onboard-server's address (`--service`, else `ONBOARD_SERVICE`).
    let serviceName: String
    private var terminal: CursesTerminal?
    /// `--headless`: one for the whole command, so a script spans the picker and a flow.
    private(set) var headless: HeadlessTerminal?
    private var recorder: CastRecorder?
    let mailbox = Mailbox()
    /// The faults in force: `--fault`, then whatever the QA console switches.
    let faults: FaultSwitchboard
    /// The run's one clock (`--clock-offset`, the console's shifts), the mock's too.
    let clock: RuntimeClock
    var warnings: [String] = []
    /// What the data key sealed that could not be opened (the mock's accounts).
    var losses: [SealedLoss] = []
    /// The embedded mock's process of the flow running, let go when the flow ends.
    var mockHelper: MockHelperTransport?
    let glyphs: Glyphs
    /// The state folder's secret store, opened by the first flow (the picker's too).
    private var secrets: (any SecretStore)?
    /// `run --flow FILE`: the file, read again on change under `--watch`.
    var flowFile: String?

    init(settings: RunSettings, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.settings = settings
        self.environment = environment
        serviceName = settings.connection.serviceName(environment: environment)
        // A state folder that is a file can hold nothing: said in one line before any
        // screen, not as a storage error and then "check your connection".
        let folder = settings.stateFolder(environment: environment)
        var isDirectory = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory {
            printError("onboard: the state folder \(folder) is a file; give --state-dir a folder (it is made if missing)")
            throw ExitCode(73)  // EX_CANTCREAT
        }
        faults = FaultSwitchboard(settings.faults)
        clock = RuntimeClock(offsetSeconds: try settings.clockOffsetSeconds())
        // Sessions, progress, analytics and the mock database are private to the user.
        umask(0o077)
        // Wide characters need a UTF-8 locale; without the user's own, draw ASCII.
        glyphs = TextMetrics.prepareLocale() == .utf8 ? .unicode : .plain
    }

    /// The theme asked for, or the default with a warning on screen.
    func loadTheme() throws -> Theme {
        do {
            return try ThemeChoice.load(settings.theme, environment: environment)
        } catch {
            // Said on the screen too: stderr is hidden behind the onboarding screens.
            printError("onboard: theme: \(error); using the default theme")
            warnings.append("The theme could not be used (\(error)), so the default theme is shown.")
            return try ThemeChoice.load(nil, environment: environment)
        }
    }

    /// The device to draw on: the headless one, or the terminal.
    func device() throws -> TerminalDevice {
        if settings.headless { return try headless ?? openHeadless() }
        return try terminal ?? openTerminal()
    }

    /// Whether this run uses plain line prompts: asked for with `--accessible`, or the
    /// only way left when there is no terminal to draw on, or it cannot draw. Decided
    /// once per command (a picker and its flow use the same).
    private lazy var linePrompts: Bool = {
        if settings.accessible { return true }
        if settings.headless || terminal != nil { return false }
        let reason: String
        if isatty(0) != 1 || isatty(1) != 1 {
            reason = "standard input and output are not a terminal"
        } else {
            do {
                _ = try openTerminal()
                return false
            } catch {
                reason = "\(error)"
            }
        }
        printError("onboard: cannot draw screens here (\(reason)), so the flow is asked as plain lines; --accessible asks for this.")
        return true
    }()

    /// `--headless`: frames printed (or written to `--frames`), keys from the script.
    func openHeadless() throws -> HeadlessTerminal {
        let device = try HeadlessTerminal.scripted(settings)
        headless = device
        return device
    }

    /// `--cast`: one recording for the whole command.
    func castRecorder(size: (width: Int, height: Int)) throws -> CastRecorder? {
        guard let path = settings.cast else { return nil }
        if let recorder { return recorder }
        do {
            recorder = try CastRecorder(path: path, width: size.width, height: size.height, theme: try loadTheme(), title: "Onboard")
        } catch {
            printError("onboard: cannot write the recording \(path): \(error)")
            throw ExitCode(2)
        }
        return recorder
    }

    /// Opens the terminal; `CursesTerminal.OpenError` says why it cannot draw.
    func openTerminal() throws -> CursesTerminal {
        let theme = try loadTheme()
        let terminal = try CursesTerminal(term: environment["TERM"], theme: theme)
        CursesTerminal.installSignalHandlers(notifying: mailbox.writeDescriptor)
        self.terminal = terminal
        return terminal
    }

    func close() {
        terminal?.close()
        terminal = nil
        recorder?.close()
        recorder = nil
        // Where secrets went, said once the screen no longer covers stderr.
        if let notice = (secrets as? DeferredSecretStore)?.takeNotice() { printError("onboard: \(notice)") }
    }

    /// After a headless run: a script that stopped early prints why and the last frame,
    /// and the command exits 3.
    func finishHeadless() throws {
        guard let headless, let failure = headless.failure else { return }
        printError("onboard: \(failure)")
        if let frame = headless.lastFrame {
            writeAll("── last frame ──\n\(HeadlessTerminal.plainText(frame))\n", to: STDOUT_FILENO)
        }
        throw ExitCode(3)
    }

    /// Runs one flow to its end on the open terminal.
    func run(_ flow: Flow) throws -> FlowRunner.Ending {
        try runWithState(flow).ending
    }

    /// The picker is a flow too; its pick is read from the final state.
    func runPicker(_ flow: Flow) throws -> (ending: FlowRunner.Ending, state: FlowState) {
        try runWithState(flow)
    }

    private func runWithState(_ flow: Flow) throws -> (ending: FlowRunner.Ending, state: FlowState) {
        let lines = linePrompts
        let stateFolder = settings.stateFolder(environment: environment)
        let secrets = try self.secrets ?? settings.local.openSecretStore(stateFolder: stateFolder, environment: environment)
        self.secrets = secrets
        let services = try makeServices(stateFolder: stateFolder, secrets: secrets)
        let outbox = outboxReader(mock: services.runningMock)
        var defaults: [String: Value] = [:]
        if let key = flow.serviceURLKey { defaults[key] = .text(serviceAddress) }
        // Each service's session and progress are kept apart (`ServiceFolders`). A flow that
        // names its own service (Baby Basics' server URL) keeps it in its progress, with
        // the session made there: `--service` only fills that field in.
        let service = flow.serviceURLKey == nil ? serviceIdentity(stateFolder: stateFolder) : nil
        let folder = try ServiceFolders.folder(stateDirectory: stateFolder, flowID: flow.id, service: service)
        if let service,
            let note = ServiceFolders.keptElsewhere(stateDirectory: stateFolder, flowID: flow.id, besides: folder, current: service)
        {
            warnings.append(note)
        }
        let store = StateStore(stateDirectory: stateFolder, flowID: flow.id, folder: folder, secrets: secrets)
        let session = FlowSession(
            engine: FlowEngine(flow: flow),
            store: store,
            operations: OperationRunner(
                services: services, flowID: flow.id, sessionFile: store.sessionFile,
                clock: clock,
                device: DeviceSetup(
                    folder: store.folder, simulation: settings.simulation, clock: clock,
                    utcOffset: Instant.utcOffset())),
            clock: clock,
            mailbox: mailbox,
            warnings: warnings,
            losses: losses,
            defaults: defaults,
            delivery: eventDelivery(for: flow, store: store, services: services))
        warnings = []
        losses = []
        defer {
            session.finishDelivery()
            // The mock answers what it was asked and closes its file before Onboard exits.
            if let helper = mockHelper, helper.wasStarted { _ = try? Blocking.run { await helper.finish() } }
        }
        if lines {
            let ending = LinePrompter(session: session).run()
            return (ending, session.state)
        }
        let terminal = try device()
        headless?.smsCode = { outbox().last { $0.kind == "sms" }?.code }
        let runner = FlowRunner(
            session: session,
            renderer: Renderer(glyphs: glyphs),
            terminal: terminal,
            recorder: try castRecorder(size: terminal.size),
            qa: QAControls(faults: faults, outbox: outbox),
            liveReload: liveReload())
        let ending = runner.run()
        return (ending, runner.currentState)
    }

    /// The service the run was started with, as an address (`mock://local` for the
    /// embedded mock).
    private var serviceAddress: String {
        serviceName == "mock" ? ServiceDirectory.mockAddress : serviceName
    }

    /// Which service the run's sessions belong to: the embedded mock over the folder's
    /// own database, the mock over another file (`--mock-db`), or a server's address.
    private func serviceIdentity(stateFolder: String) -> String {
        guard serviceName == "mock" else { return ServiceFolders.identity(ofAddress: serviceName) }
        guard let file = settings.mockDatabase, !EmbeddedMockFile.isOwn(file, stateDirectory: stateFolder) else {
            return ServiceFolders.embeddedMock
        }
        return "mock://" + URL(fileURLWithPath: file).standardizedFileURL.path
    }

    /// Delivery of the flow's analytics to its service, unless the flow records none. With
    /// `DO_NOT_TRACK` (consoledonottrack.com) events stay in the local log only, but a
    /// withdrawal of consent still reaches the service: not sending never stops a deletion.
    private func eventDelivery(for flow: Flow, store: StateStore, services: ServiceDirectory) -> EventDelivery? {
        let optedOut = !(environment["DO_NOT_TRACK"] ?? "").isEmpty && environment["DO_NOT_TRACK"] != "0"
        guard flow.recordsEvents else { return nil }
        return EventDelivery(
            queue: EventQueue(folder: store.folder), services: services, defaultService: serviceAddress, sendsEvents: !optedOut)
    }

    /// `--watch`: the flow file (`run --flow FILE`) and the theme, if it is a file.
    private func liveReload() -> LiveReload? {
        guard settings.watch, let tools = InstalledFileTools.current else { return nil }
        let environment = self.environment
        let noColour = !(environment["NO_COLOR"] ?? "").isEmpty
        let themeFile = noColour ? nil : settings.theme.flatMap { tools.themeFile($0, environment: environment) }
        return LiveReload(
            flowPath: flowFile, themePath: themeFile, loadFlow: { path in try tools.flow(file: path) },
            loadTheme: { path in try tools.theme(path, environment: environment) })
    }

    /// Exits as the ending asks: 0 for a quit, 128 + N for signal N.
    static func exit(for ending: FlowRunner.Ending) throws {
        if case .signal(let number) = ending { throw ExitCode(128 + number) }
    }
}
