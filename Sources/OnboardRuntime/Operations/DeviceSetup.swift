import Installation
import CivilCalendar
import FlowEngine
import FoundationEssentials
import InputRules
import ScreenTable
import ServiceAPI
import ServiceClient

/// MIGA's first-run setup on this device: the local store and content cache, remote
/// config checked as untrusted input, the compatibility check, hiding validation and
/// the hub. What an iPhone would report (unlock method, URL schemes, whether the apps
/// are hidden) is simulated, so QA can pick each case (`onboard --simulate`).
public struct DeviceSetup: Sendable {
    /// The flow's folder on this device; nil keeps nothing (tests of other flows).
    public var folder: String?
    /// `biometrics=face_id|touch_id|passcode|none`, `unsupported=tiktok,x`,
    /// `hiding=pass|fail`, `browser=yes|no` (whether a browser can be opened here).
    public var simulation: [String: String]
    public var clock: RuntimeClock
    public var utcOffset: Int64

    public static let apps = ["Instagram", "TikTok", "Facebook", "X", "YouTube", "Snapchat"]
    public static let biometrics = Operation.checkCompatibility.deviceReports["biometrics"]!
    public static let simulationKeys = ["biometrics", "unsupported", "hiding", "browser"]
    /// Remote config defaults (the spec's fallback values).
    static let defaultConfig: [String: Value] = ["content_sync_enabled": .text("false"), "onboarding_flow_version": .text("1.0")]

    public init(folder: String? = nil, simulation: [String: String] = [:], clock: RuntimeClock = RuntimeClock(), utcOffset: Int64 = 0) {
        self.folder = folder
        self.simulation = simulation
        self.clock = clock
        self.utcOffset = utcOffset
    }

    /// This person's browser, or what `--simulate browser=` says of it.
    var browser: Browser { Browser(simulated: simulation["browser"]) }

    var contentPath: String? { folder.map { $0 + "/content.json" } }

    /// The store is the flow's private folder; a write proves it usable.
    func prepareStore() throws -> CallOutput {
        guard let folder else { return CallOutput(values: ["note": .text("in memory only")]) }
        try AtomicFile.makePrivateDirectory(folder)
        try AtomicFile.writeJSON(["schema": 1], to: folder + "/store.json")
        return CallOutput(values: ["note": .text("ready")])
    }

    /// Remote config is untrusted: each value is checked, and a missing, malformed or
    /// out-of-range one takes its default. Unreachable, every value does.
    func fetchConfig(_ service: any AuthService) async -> CallOutput {
        var values = Self.defaultConfig
        guard let config = try? await service.appConfig() else {
            values["note"] = .text("local: defaults used (content sync off, flow 1.0)")
            values["fell_back"] = .text("true")
            return CallOutput(values: values)
        }
        var rejected: [String] = []
        switch config["content_sync_enabled"] {
        case .flag(let enabled)?: values["content_sync_enabled"] = .text(enabled ? "true" : "false")
        default: rejected.append("content_sync_enabled")
        }
        if case .text(let version)? = config["onboarding_flow_version"], Self.isFlowVersion(version) {
            values["onboarding_flow_version"] = .text(version)
        } else {
            rejected.append("onboarding_flow_version")
        }
        let sync = values["content_sync_enabled"] == .text("true") ? "on" : "off"
        let summary = "content sync \(sync), flow \(values["onboarding_flow_version"]?.text ?? "1.0")"
        values["note"] = .text(rejected.isEmpty ? summary : summary + "; default used for " + rejected.joined(separator: ", "))
        return CallOutput(values: values)
    }

    /// `MAJOR.MINOR`, each 1 to 3 digits, major 1 to 99: what this client understands.
    static func isFlowVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
            let major = Int(parts[0])
        else { return false }
        return (1...99).contains(major)
    }

    static let localOnlyNote = "Local-only mode: MIGA syncs content when it can reach the service."

    /// Whether the content cache is there and readable.
    var contentIsCached: Bool {
        guard let path = contentPath, let data = FileManager.default.contents(atPath: path) else { return false }
        return (try? JSONDecoder().decode([ContentEntry].self, from: data)) != nil
    }

    /// The service's content into the cache, when it answers with enough of it; whether
    /// it did (the cache is left as it was otherwise).
    func refreshContent(_ request: CallRequest, on service: any AuthService) async -> Bool {
        guard let session = request.session,
            let entries = try? await service.content(accessToken: session.accessToken, kind: "mindfulness"), entries.count >= 10
        else { return false }
        if let path = contentPath { try? AtomicFile.writeJSON(Array(entries.prefix(20)), to: path) }
        return true
    }

    /// 10 to 20 entries from the service into the cache; offline or signed out, the
    /// bundled ones.
    func preloadContent(_ request: CallRequest, _ service: any AuthService) async throws -> CallOutput {
        var entries: [ContentEntry] = []
        if let session = request.session {
            entries = (try? await service.content(accessToken: session.accessToken, kind: "mindfulness")) ?? []
        }
        let fromService = entries.count >= 10
        if !fromService { entries = BundledContent.mindfulness }
        entries = Array(entries.prefix(20))
        if let path = contentPath { try AtomicFile.writeJSON(entries, to: path) }
        let note = fromService ? "\(entries.count) entries cached" : "local: \(entries.count) bundled entries cached"
        return CallOutput(values: [
            "note": .text(note), "fell_back": .text(fromService ? "false" : "true"), "content_count": .text(String(entries.count)),
        ])
    }

    /// Which apps have a URL scheme MIGA can gate, and the unlock method; both simulated.
    func checkCompatibility() -> CallOutput {
        let unsupported = Set(
            (simulation["unsupported"] ?? "").lowercased().split(separator: ",").map { String($0).trimmingWhitespace })
        let supported = Self.apps.filter { !unsupported.contains($0.lowercased()) }
        let biometrics = Self.biometrics.contains(simulation["biometrics"] ?? "") ? simulation["biometrics"]! : "face_id"
        let method = ["face_id": "Face ID", "touch_id": "Touch ID", "passcode": "passcode only", "none": "no passcode"][biometrics]!
        return CallOutput(values: [
            "supported_apps": .list(supported), "biometrics": .text(biometrics),
            "note": .text("\(supported.count) of \(Self.apps.count) apps supported; \(method)"),
        ])
    }

    static let streakRestartedNote =
        "A day went by without MIGA, so your streak starts again today: it counts the days in a row you open MIGA."

    /// "I've done it": whether the chosen apps are now hidden.
    func validateHiding() throws -> CallOutput {
        if simulation["hiding"] == "fail" {
            throw ServiceError(.notFound, "MIGA can still open the apps directly, so they are not hidden yet.")
        }
        return CallOutput(values: ["hiding_verified": .text("true")])
    }

    /// The streak counts the days in a row the hub was opened (issue 32: it counted
    /// calendar days since the first visit, "Day 401" after 400 days away); a day missed
    /// starts it again, and the hub says so. The banner is a cached entry; the summary
    /// shows the choices, which never leave the device.
    func openHub(_ request: CallRequest) -> CallOutput {
        let today = CivilDate(milliseconds: clock.nowMilliseconds(), utcOffset: utcOffset)
        let started = request.inputs["hub_since"].flatMap { CivilDate($0) } ?? today
        // A hub opened before the last visit was kept is taken as visited yesterday.
        let last = request.inputs["hub_last"].flatMap { CivilDate($0) } ?? CivilDate(daysSince1970: today.daysSince1970 - 1)
        let missedADay = today.daysSince1970 - last.daysSince1970 > 1
        let since = missedADay ? today : started
        let day = max(1, today.daysSince1970 - since.daysSince1970 + 1)
        var summary: [String] = []
        if missedADay { summary.append(Self.streakRestartedNote) }
        var cached: [ContentEntry]?
        if let path = contentPath, let data = FileManager.default.contents(atPath: path) {
            cached = try? JSONDecoder().decode([ContentEntry].self, from: data)
            if cached == nil {
                // Reported like every other unreadable state file, set aside, and rebuilt
                // from the bundled entries (the service's come with the next sync).
                let aside = DamagedFile.setAside(path).map { PathText.name(of: $0) } ?? "content.json"
                summary.append(
                    "The cached content (content.json) could not be read, so the bundled entries are used. The old file was kept as \(aside)."
                )
                try? AtomicFile.writeJSON(BundledContent.mindfulness, to: path)
            }
        }
        let entries = cached?.isEmpty == false ? cached! : BundledContent.mindfulness
        let banner = entries[(today.daysSince1970 % entries.count + entries.count) % entries.count]
        // Only what is known: an answer lost with its file is left out, not shown as "?".
        if let readiness = request.inputs["readiness"], !readiness.isEmpty { summary.append("Readiness: \(readiness) of 10") }
        if case .list(let interests)? = request.fields["interests"] { summary.append("Interests: " + interests.joined(separator: ", ")) }
        if case .list(let apps)? = request.fields["apps"] { summary.append("Behind a mindful pause: " + apps.joined(separator: ", ")) }
        if request.inputs["setup_mode"] == "local-only" { summary.append(Self.localOnlyNote) }
        return CallOutput(values: [
            "hub_since": .text(since.description), "hub_last": .text(today.description), "streak_day": .text(String(day)),
            "banner": .text("\(banner.title): \(banner.body)"), "hub_summary": .list(summary),
        ])
    }
}
