/// A flow as the screen table declares it: screens, how a launch enters them, the
/// service calls they make and the analytics they emit. Flows are data; this is their
/// validated, typed form.
public struct Flow: Sendable, Equatable {
    public var id: String
    public var title: String
    public var summary: String
    public var entry: Entry
    public var tokens: TokenSettings
    public var analytics: AnalyticsNames
    public var screens: [Screen]
    /// The context key holding the service address this flow talks to (Baby Basics'
    /// server URL); nil uses the service Onboard was started with.
    public var serviceURLKey: String?
    /// How many numbered steps the flow has ("Step N of M"); screens carry their `step`.
    public var stepCount: Int?
    /// Context keys shown on screen that a recording must never hold (invite codes);
    /// password and code fields are masked without being named here.
    public var secrets: [String] = []

    public init(
        id: String, title: String, summary: String = "", entry: Entry,
        tokens: TokenSettings = TokenSettings(), analytics: AnalyticsNames = AnalyticsNames(),
        screens: [Screen]
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.entry = entry
        self.tokens = tokens
        self.analytics = analytics
        self.screens = screens
    }

    public func screen(_ id: String) -> Screen? {
        screens.first { $0.id == id }
    }

    /// Whether a run of the flow records analytics at all: a milestone's event, or a
    /// screen's own.
    public var recordsEvents: Bool { analytics.namesAny || screens.contains { !$0.track.isEmpty } }

    /// Keys of password and code fields: never saved, dropped once used.
    public var typedSecretKeys: Set<String> {
        Set(screens.flatMap(\.fields).filter { $0.kind == .password || $0.kind == .code }.map(\.id))
    }

    /// Everything a recording or the QA console masks: typed secrets and `secrets`.
    public var maskedKeys: Set<String> {
        typedSecretKeys.union(secrets)
    }
}

/// The entry decision on launch.
public struct Entry: Sendable, Equatable {
    /// Where a first launch (no session, nothing to resume) begins.
    public var firstLaunch: String
    /// Where a launch with a usable session goes once onboarding is complete.
    public var signedIn: String?
    /// Whether saved progress brings the user back to their last resume point.
    public var resume: Bool
    /// Where a session the service turned down lands (ABBY: the method choice, keeping
    /// consent); nil starts again at `firstLaunch`.
    public var signedOut: String?
    /// Whether `signedIn` needs a session; false for a flow that works on this device
    /// alone once onboarding is done (MIGA's local-only mode).
    public var sessionRequired = true
    /// Where a named account whose session ended (refused, or unused past its refresh
    /// lifetime) is asked to log in again, its non-secret fields filled in from before;
    /// nil: as `signedOut`.
    public var sessionEnded: String?
    /// A guest whose renewal is refused keeps its identity and this device's data and
    /// tries again later, instead of becoming a new guest (RuckTracker: a guest never
    /// loses data).
    public var keepsGuest = false
    /// A first launch the network keeps from making its guest starts one on this device
    /// instead, registered with the service once it answers; this note says so. nil: the
    /// first-launch call's failure is shown as any other (RuckTracker: no auth wall).
    public var offlineGuest: String?

    public init(firstLaunch: String, signedIn: String? = nil, resume: Bool = true, signedOut: String? = nil) {
        self.firstLaunch = firstLaunch
        self.signedIn = signedIn
        self.resume = resume
        self.signedOut = signedOut
    }
}

/// Token lifetimes the flow asks of the service, in seconds; nil means never expires.
public struct TokenSettings: Sendable, Equatable {
    public var accessLifetime: Int64
    public var refreshLifetime: Int64?
    /// Renew the access token this long before it expires (seconds).
    public var renewBefore: Int64

    public init(accessLifetime: Int64 = 24 * 3600, refreshLifetime: Int64? = nil, renewBefore: Int64 = 60) {
        self.accessLifetime = accessLifetime
        self.refreshLifetime = refreshLifetime
        self.renewBefore = renewBefore
    }
}

/// Names of the analytics events the engine emits at the flow's milestones.
public struct AnalyticsNames: Sendable, Equatable {
    /// On display of the first-launch screen, with a placeholder user id backfilled later.
    public var start: String?
    /// On first arrival at a screen marked `complete`, with `duration_ms`.
    public var complete: String?
    /// When a service call fails and the failure is shown, with `error_code`.
    public var error: String?
    /// When the user retries after an error, with `attempt_number`.
    public var retry: String?
    /// The flow's own error codes for service error codes (`network` -> `ERR-ONB-001`).
    public var errorCodes: [String: String]
    /// A context key that must read `granted` before any event is recorded (ABBY: "no
    /// tracking without explicit consent"); events before that are dropped, not kept.
    public var consentKey: String?
    /// After a silent token renewal.
    public var renewed: String?
    /// On arrival at a numbered screen (`step`), with `step` (which steps people reach).
    public var step: String?
    /// On arrival at every screen, with `screen_index` (its place in the file): what a
    /// funnel counts, so the team can see where people stop.
    public var screens: String?
    /// A context key whose value every event carries under the same name (MIGA's remote
    /// `onboarding_flow_version`): the funnel splits by it, an A/B comparison.
    public var breakdown: String?

    /// Whether any milestone records an event.
    public var namesAny: Bool { [start, complete, error, retry, renewed, step, screens].contains { $0 != nil } }
    /// Events keep the device's own random id, never the service's user id (MIGA:
    /// "local-only identifiers for analytics").
    public var localID = false

    public init(
        start: String? = nil, complete: String? = nil, error: String? = nil, retry: String? = nil,
        errorCodes: [String: String] = [:]
    ) {
        self.start = start
        self.complete = complete
        self.error = error
        self.retry = retry
        self.errorCodes = errorCodes
    }
}
