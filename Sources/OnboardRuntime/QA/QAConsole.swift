import FlowEngine
import FoundationEssentials
import Installation
import ScreenTable
import ServiceAPI
import ServiceClient
import TerminalUI

/// What the QA console shows about the run: read fresh each time it is drawn.
public struct QAInfo: Equatable, Sendable {
    public var flow: String
    public var screen: String
    public var screens: [String]
    /// `key = value` lines, secrets and tokens masked.
    public var context: [String]
    public var session: [String]
    public var faultsOn: [Fault]
    public var clockOffsetSeconds: Int64
    public var outbox: [String]
    public var analytics: [String]
    /// What QA has reached of the flow, and how to reach the rest.
    public var coverage: [String]

    public init(
        flow: String, screen: String, screens: [String], context: [String], session: [String], faultsOn: [Fault],
        clockOffsetSeconds: Int64, outbox: [String], analytics: [String], coverage: [String] = []
    ) {
        self.coverage = coverage
        self.flow = flow
        self.screen = screen
        self.screens = screens
        self.context = context
        self.session = session
        self.faultsOn = faultsOn
        self.clockOffsetSeconds = clockOffsetSeconds
        self.outbox = outbox
        self.analytics = analytics
    }
}

/// The QA console (Ctrl-G or F12 on any screen, Esc closes): a small menu over the
/// running flow. It only reads keys and says what to do; the runner does it, so the
/// flow underneath stays exactly where it was.
public struct QAConsole: Equatable, Sendable {
    public enum Page: String, Equatable, Sendable, CaseIterable {
        case context = "Context and session"
        case faults = "Faults for the next calls"
        case clock = "Clock"
        case outbox = "Outbox (SMS and invite codes)"
        case jump = "Jump to a screen"
        case analytics = "Analytics (last events)"
        case coverage = "Seen / not yet seen"
        case reset = "Reset this flow"
    }

    public enum Command: Equatable, Sendable {
        case close
        case toggleFault(Fault)
        case shiftClock(seconds: Int64)
        case resetClock
        case jump(String)
        case resetFlow
    }

    /// Opens (and closes) the console: a control key works over any SSH connection,
    /// F12 where function keys arrive.
    public static func opens(_ key: Key) -> Bool {
        key == .control("g") || key == .function(12)
    }

    // New faults go before the last two: QA's scripts reach those from the bottom (Up).
    public static let faultChoices: [Fault] = [
        .network, .serverError, .rateLimit, .slow(milliseconds: 2000), .reauthFail, .slowDown, .expiredDeviceCode, .forgedIDToken, .timeout,
    ]
    public static let shifts: [(label: String, seconds: Int64)] = [("+1 hour", 3600), ("+1 day", 86_400), ("+31 days", 31 * 86_400)]

    /// nil: the menu.
    public private(set) var page: Page?
    public private(set) var focus = 0

    public init() {}

    /// The choices on the current page, in order; the last is always the way back.
    public func options(_ info: QAInfo) -> [String] {
        switch page {
        case nil: Page.allCases.map(\.rawValue) + ["Close"]
        case .faults?: Self.faultChoices.map { (info.faultsOn.contains($0) ? "[x] " : "[ ] ") + $0.description } + ["Back"]
        case .clock?: Self.shifts.map(\.label) + ["Back to real time", "Back"]
        case .jump?: info.screens + ["Back"]
        case .reset?: ["Yes, forget this flow's state and start again", "Back"]
        case .outbox?, .context?, .analytics?, .coverage?: ["Back"]
        }
    }

    public mutating func handle(_ key: Key, info: QAInfo) -> Command? {
        let count = options(info).count
        switch key {
        case .escape, .control("g"), .function(12):
            if page == nil || key != .escape { return .close }
            back()
        case .down, .tab, .right:
            focus = (focus + 1) % count
        case .up, .backTab, .left:
            focus = (focus + count - 1) % count
        case .enter:
            return choose(info)
        default:
            break
        }
        return nil
    }

    private mutating func choose(_ info: QAInfo) -> Command? {
        let last = options(info).count - 1
        if focus == last {
            if page == nil { return .close }
            back()
            return nil
        }
        switch page {
        case nil:
            page = Page.allCases[focus]
            focus = 0
            return nil
        case .faults?:
            return .toggleFault(Self.faultChoices[focus])
        case .clock?:
            return focus < Self.shifts.count ? .shiftClock(seconds: Self.shifts[focus].seconds) : .resetClock
        case .jump?:
            return .jump(info.screens[focus])
        case .reset?:
            return .resetFlow
        case .outbox?, .context?, .analytics?, .coverage?:
            return nil
        }
    }

    private mutating func back() {
        focus = page.flatMap { Page.allCases.firstIndex(of: $0) } ?? 0
        page = nil
    }

    /// The console as a screen, drawn by the same renderer as the flows.
    public func view(_ info: QAInfo) -> ScreenView {
        var view = ScreenView()
        view.kind = .choice
        view.title = "QA console" + (page.map { ": " + $0.rawValue } ?? "")
        let offset = info.clockOffsetSeconds == 0 ? "real time" : "clock " + Self.describe(info.clockOffsetSeconds)
        let faults = info.faultsOn.isEmpty ? "no faults" : "faults: " + info.faultsOn.map(\.description).joined(separator: ", ")
        view.body = "\(info.flow) · screen \(info.screen) · \(offset) · \(faults) · onboard \(OnboardVersion.full)"
        switch page {
        case .context?: view.items = info.session + info.context
        case .outbox?: view.items = info.outbox.isEmpty ? ["Nothing sent yet."] : info.outbox
        case .analytics?: view.items = info.analytics.isEmpty ? ["No events recorded."] : info.analytics
        case .reset?: view.items = ["Forgets this flow's session, progress and analytics on this device."]
        case .coverage?: view.items = info.coverage
        default: break
        }
        view.options = options(info).enumerated().map { ScreenView.ItemView(label: $1, focused: $0 == focus) }
        view.canGoBack = true
        return view
    }

    /// `+1d 2h`, `-30m`; unsigned, `1d 2h`.
    static func describe(_ seconds: Int64, signed: Bool = true) -> String {
        let sign = seconds < 0 ? "-" : (signed ? "+" : "")
        var rest = abs(seconds)
        var parts: [String] = []
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where rest >= size {
            parts.append("\(rest / size)\(unit)")
            rest %= size
        }
        if parts.isEmpty || rest > 0 { parts.append("\(rest)s") }
        return sign + parts.joined(separator: " ")
    }
}
