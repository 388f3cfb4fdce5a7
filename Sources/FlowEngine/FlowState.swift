import ScreenTable

/// Everything the engine knows about a running flow. The renderer reads it; only the
/// reducer changes it.
public struct FlowState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// Before `launched`.
        case idle
        /// Renewing an expired session silently on launch; `attempt` counts from 1.
        case renewing(attempt: Int)
        /// A screen is shown.
        case showing
        /// The user quit.
        case finished
    }

    /// A banner on the current screen.
    public enum Message: Equatable, Sendable {
        case notice(String)
        case error(String)
    }

    /// Where a call was made from, so Try Again can make it again from there.
    public enum Origin: Equatable, Sendable {
        /// A progress screen's call on arrival.
        case arrival(screen: String)
        /// An action's call, or a choice's `then` call.
        case step(screen: String, call: ServiceCall)

        /// The screen the call was made from.
        public var screen: String {
            switch self {
            case .arrival(let screen), .step(let screen, _): screen
            }
        }
    }

    /// Moved by the composition (quit), the session's launch (renewing) and arriving
    /// at a screen (showing).
    public var phase: Phase = .idle
    /// Where the run is: the screen, the Back history. Only `Navigation` writes it.
    public var navigation = NavigationState()
    /// Whose run it is: the session, onboarding's start and completion. Only
    /// `SessionLifecycle` writes it.
    public var account = AccountState()
    /// What the person typed, chose and was told by the service, each written through
    /// the operation named for it (`FlowContext`).
    public var context = FlowContext()
    /// A banner on the current screen: whichever part answers the person says it here.
    public var message: Message?
    /// The cooling button last pressed, as its index in the screen's actions (labels may
    /// repeat): "You can do this in N s." while it cools.
    public var pressedWhileCooling: Int?
    /// Notes from launch (a corrupt file set aside), shown until the first screen changes.
    public var warnings: [String] = []
    /// No screen shown yet in this run: the next arrival's event says it starts one, so
    /// a funnel never counts the time between two launches as time on a screen.
    public var startsRun = true
    /// Reassuring notes (a guest kept on this device while the service is away, a renewal
    /// to try again): said until the screen changes, as notices, not as errors.
    public var notes: [String] = []
    /// Files that could not be written or removed: said on every screen, even after a
    /// reset, since what is kept may not survive a restart.
    public var storageProblems: [String] = []

    /// The current screen's form as it is being filled, changed through its operations.
    public var form = FormState()
    /// A checklist screen's tasks.
    public var checklist = ChecklistState()
    /// Renewal the launch or the network put off.
    public var renewal = RenewalState()
    /// Every call under way and what its result is for, and Try Again's bookkeeping.
    public var calls = CallTable()

    public init() {}

    /// A state showing one screen as if arrived there, for snapshots and previews.
    public init(showing screenID: String, session: Session? = nil, message: Message? = nil) {
        phase = .showing
        navigation = NavigationState(showing: screenID)
        account = AccountState(session: session)
        self.message = message
    }

    // Read anywhere; written by the part that owns each.
    public var screenID: String? { navigation.screenID }
    public var history: [String] { navigation.history }
    public var screenSince: Int64 { navigation.since }
    public var session: Session? { account.session }
    public var onboardingComplete: Bool { account.onboardingComplete }
    public var forcedByJump: Bool { account.forcedByJump }
    public var startedAt: Int64? { account.startedAt }
    public var placeholderUserID: String { account.placeholderUserID }
    public var utcOffset: Int64 { account.utcOffset }

    /// The user waits: for a call, a checklist task or the launch's renewal.
    public var isBusy: Bool { calls.userCall != nil || calls.task != nil || phase != .showing }
}

/// A checklist screen's tasks as they run.
public struct ChecklistState: Equatable, Sendable {
    public var tasks: [TaskStatus] = []
    /// When the checklist started (ms), for its report's `duration_ms`.
    public var startedAt: Int64?

    public init() {}
}

/// Renewal put off: by the launch (the saved progress waits for it) or by the network.
public struct RenewalState: Equatable, Sendable {
    /// When a renewal that failed for want of a network is due again (ms).
    public var dueAt: Int64?
    /// Saved progress held while the launch renews the session.
    public var heldProgress: SavedProgress?
    /// Renewals in a row whose new token was already due for renewal (the back-off).
    public var stillDue = 0

    public init() {}
}

/// One checklist line's state.
public enum TaskStatus: Equatable, Sendable {
    case waiting
    /// Under way; on a retry, which try it is ("try 2 of 3"), so QA sees it recover.
    case running(String?)
    /// Done, with what it found ("12 entries cached").
    case done(String)
    /// Failed, and the flow went on without it (a local-only mode), saying how.
    case fellBack(String)
    /// Failed with no way around it: the checklist stops; Enter tries again.
    case failed(String)
}

/// An item that can hold focus on a screen, in Tab order.
public enum Focusable: Equatable, Sendable {
    case field(Int)
    case option(Int)
    case action(Int)
}
