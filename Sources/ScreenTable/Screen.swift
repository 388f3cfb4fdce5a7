/// One screen of a flow.
public struct Screen: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Text, bullets and buttons.
        case info
        /// Input fields validated on submit, and buttons.
        case form
        /// One option to pick from a list; picking it runs `then`.
        case choice
        /// A spinner and a label while `call` runs; not a resume point.
        case progress
        /// An error panel and buttons (usually Try Again); not a resume point.
        case error
        /// No screen of its own: on arrival, goes on to the first `route` branch that
        /// holds (after a call: children or not).
        case route
        /// A live checklist: its `tasks` run one after another on arrival, each shown
        /// with its outcome; its buttons show once all are done. Not a resume point.
        case checklist
    }

    public var id: String
    public var kind: Kind
    public var title: String
    /// ASCII art drawn above the title.
    public var logo: [String]
    /// Text with `{key}` and `{key|fallback}` placeholders from the flow context.
    public var body: String
    public var bullets: [String]
    public var fields: [Field]
    public var actions: [Action]
    /// Choice screens: where the options come from, where the pick is stored, what follows.
    public var choice: Choice?
    /// Progress screens: the call made on arrival.
    public var call: ServiceCall?
    /// Calls made in the background on arrival; results fill the context, failures are ignored.
    public var load: [Operation]
    /// Whether Esc goes back to the previous screen.
    public var allowsBack: Bool
    /// A relaunch that would resume here goes to this screen instead: one that asks the
    /// service where the user stands (Baby Basics: a baby added from another device).
    public var resumeAt: String?
    /// Resumed even after onboarding is complete: a prompt that must not be lost to a
    /// quit (RuckTracker's post-purchase email prompt).
    public var resumesAfterComplete = false
    /// Whether arriving here is saved as the point a relaunch resumes at.
    public var resumable: Bool
    /// Arriving here completes onboarding.
    public var completesOnboarding: Bool
    /// Analytics events emitted on arrival.
    public var track: [String]
    /// A context list shown as rows (a log of rucks), and the text when it is empty.
    public var items: String?
    public var empty: String
    /// `items` is kept in the order things were logged; shown newest first (a log a person
    /// adds to, whose new entry must be in sight).
    public var newestFirst = false
    /// A context value shown as a QR code as well as in the text (a device sign-in's
    /// page, for a phone's camera), when the terminal has room for one.
    public var qr: String?
    /// A call made again and again while the screen is shown (a device sign-in's poll).
    public var poll: Poll?
    /// Route screens: where to go on arrival.
    public var route: [Branch] = []
    /// Its place in the flow's numbered steps ("Step 3 of 7"), if it has one.
    public var step: Int?
    /// Checklist screens: the tasks; the buttons show once they are done.
    public var tasks: [ChecklistTask] = []
    /// Checklist screens: the event recorded when every task is done, with
    /// `duration_ms` and `fallbacks`.
    public var report: String?
    /// Checklist screens: the note when every task succeeded, and when some fell back.
    public var finishedNote: String?
    public var fallbackNote: String?
    public var location: SourceLocation?

    public init(
        id: String, kind: Kind, title: String = "", logo: [String] = [], body: String = "",
        bullets: [String] = [], fields: [Field] = [], actions: [Action] = [], choice: Choice? = nil,
        call: ServiceCall? = nil, load: [Operation] = [], allowsBack: Bool = false,
        resumable: Bool? = nil, completesOnboarding: Bool = false, track: [String] = [],
        items: String? = nil, empty: String = "", location: SourceLocation? = nil
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.logo = logo
        self.body = body
        self.bullets = bullets
        self.fields = fields
        self.actions = actions
        self.choice = choice
        self.call = call
        self.load = load
        self.allowsBack = allowsBack
        self.resumable = resumable ?? (kind != .progress && kind != .error && kind != .route && kind != .checklist)
        self.completesOnboarding = completesOnboarding
        self.track = track
        self.items = items
        self.empty = empty
        self.location = location
    }
}

/// One line of a checklist: an operation, what it is called on screen, and what happens
/// when it fails.
public struct ChecklistTask: Sendable, Equatable {
    public var label: String
    public var operation: Operation
    /// Extra attempts after a failure the network caused.
    public var retries: Int
    /// Shown when it still fails: the checklist goes on (a local-only mode). nil stops
    /// the checklist on an error with Try Again.
    public var fallback: String?

    public init(label: String, operation: Operation, retries: Int = 0, fallback: String? = nil) {
        self.label = label
        self.operation = operation
        self.retries = retries
        self.fallback = fallback
    }
}

/// A call repeated while its screen is shown, every `every` seconds (a context value; 5
/// without one), until an answer with an outcome of its own: `authorization_pending`
/// (unless `on:` names it) waits another interval, `slow_down` five seconds more from
/// then on (RFC 8628 §3.5). The screen stays usable meanwhile (Cancel, Esc). `until` (a
/// context value: an instant in ms) is when the answer can no longer come: the poll stops
/// there and follows `expired_token`'s outcome without asking again (RFC 8628 §3.5: a
/// device stops polling once its code expires).
///
/// `withdraw` is made when the screen is left while the poll still waits (Cancel, Esc, a
/// move elsewhere): what was started for the poll is given up at the service, with the
/// inputs it had, which the context then forgets.
public struct Poll: Sendable, Equatable {
    public var call: ServiceCall
    public var every: String?
    public var until: String?
    public var withdraw: Operation?

    public init(call: ServiceCall, every: String?, until: String? = nil, withdraw: Operation? = nil) {
        (self.call, self.every, self.until, self.withdraw) = (call, every, until, withdraw)
    }
}

extension Screen {
    /// Every call the screen itself makes: on arrival, and its poll.
    public var ownCalls: [ServiceCall] {
        [call, poll?.call].compactMap { $0 }
    }
}
