import FlowAuthoring
import FlowEngine
import FoundationEssentials
import ScreenTable
import ServiceAPI
import ServiceClient
import TerminalUI

/// The QA console (Ctrl-G) on the run loop: its keys, what it changes in the run, and
/// what it shows, read fresh for each draw.
extension FlowRunner {
    func handleConsole(_ key: Key) {
        guard var open = console else {
            console = QAConsole()
            return
        }
        // PgUp/PgDn read a page longer than the screen, as the help line offers (issue 32).
        if key == .pageUp || key == .pageDown {
            if consoleScroll.press(key) { terminal.invalidate() }
            return
        }
        let command = open.handle(key, info: qaInfo())
        console = open
        switch command {
        case .close?:
            console = nil
        case .toggleFault(let fault)?:
            qa.faults.toggle(fault)
        case .shiftClock(let seconds)?:
            clock.offsetSeconds += seconds
            dispatch(.clockMoved)  // a token the shift expired is renewed (or found rejected) now
        case .resetClock?:
            clock.offsetSeconds = 0
            dispatch(.clockMoved)
        case .jump(let screen)?:
            console = nil
            dispatch(.jump(screen))
        case .resetFlow?:
            console = nil
            session.reset()
        case nil:
            break
        }
        terminal.invalidate()
    }

    /// What the console shows; `masking` (a recording) hides codes and secrets.
    /// serve-web's (or serve-ssh --watch-web's) watch link for this session: read once.
    static let watchLink = ProcessInfo.processInfo.environment["ONBOARD_WATCH_LINK"]

    func qaInfo(masking: Bool = false) -> QAInfo {
        let flow = engine.flow
        let secret = flow.maskedKeys
        let context = state.context.sorted { $0.key < $1.key }.map { key, value -> String in
            let value: String =
                switch value {
                case .text(let text): text
                case .list(let items): items.joined(separator: ", ")
                }
            let shown = secret.contains(key) && !value.isEmpty ? "••••••" : value
            return "\(key) = " + (shown.count > 60 ? shown.prefix(59) + "…" : shown)
        }
        let now = clock.nowMilliseconds() / 1000
        var sessionLines = ["session: none"]
        if let current = state.session {
            let access = current.accessExpiresAt - now
            let refresh =
                current.refreshExpiresAt.map { $0 > now ? "expires in " + QAConsole.describe($0 - now, signed: false) : "expired" }
                ?? "never expires"
            sessionLines = [
                "user \(current.userID)\(current.isAnonymous ? " (anonymous)" : "")",
                "access token …\(current.accessToken.suffix(4)): "
                    + (access > 0 ? "expires in " + QAConsole.describe(access, signed: false) : "expired"),
                "refresh token …\(current.refreshToken.suffix(4)): \(refresh)",
                "tokens kept in \(session.store.secrets.summary)",
            ]
        }
        // `onboard serve-web` gives each session the link a second browser watches it by
        // (read-only), for the presenter to hand out.
        if let link = Self.watchLink {
            sessionLines.append("watch link: " + (masking ? "••••••" : link))
        }
        // Files and the outbox are read only for the page that shows them, not on every draw.
        let page = console?.page
        let outbox =
            page != .outbox
            ? []
            : qa.outbox().suffix(8).map { entry in
                "\(entry.kind) \(entry.destination)  " + (masking ? "••••••" : entry.code)
            }
        let analytics =
            page != .analytics
            ? []
            : session.store.analytics.events().suffix(8).map { event in
                "\(event["timestamp"] as? String ?? "") \(event["event"] as? String ?? "?")"
            }
        let coverage =
            page != .coverage ? [] : CoverageReport(map: CoverageMap(flow: flow), seen: session.store.coverage.seen()).consoleLines
        return QAInfo(
            flow: flow.id, screen: state.screenID ?? "-", screens: flow.screens.filter { $0.kind != .route }.map(\.id),
            context: context, session: sessionLines, faultsOn: qa.faults.faults, clockOffsetSeconds: clock.offsetSeconds,
            outbox: Array(outbox), analytics: Array(analytics), coverage: coverage)
    }
}

/// What the QA console acts on besides the flow: the run's faults and the outbox of the
/// service in use.
public struct QAControls: Sendable {
    public var faults: FaultSwitchboard
    public var outbox: @Sendable () -> [OutboxEntry]

    public init(faults: FaultSwitchboard = FaultSwitchboard(), outbox: @escaping @Sendable () -> [OutboxEntry] = { [] }) {
        self.faults = faults
        self.outbox = outbox
    }
}
