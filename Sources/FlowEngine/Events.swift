import ScreenTable
import ServiceAPI

/// What the user means by a key, after the key map has read it.
public enum Intent: Equatable, Sendable {
    case focusNext
    case focusPrevious
    /// Left / Right: change a value widget, or move along a row of buttons.
    case left
    case right
    case activate
    case back
    case quit
    case insert(String)
    /// Pasted text: like typing into the focused field, but never a shortcut.
    case paste(String)
    case deleteBackward
    /// Readline editing in the focused text field (words, kills, yank, Delete).
    case edit(TextEdit)
    /// A printable key that is not typed into a field: an action's shortcut.
    case shortcut(Character)
    /// Shows or hides the focused password.
    case toggleReveal
    /// PageUp / PageDown: a bigger step for a value widget (a month in a date).
    case pageUp
    case pageDown
    /// Home / End: the biggest step (a year in a date).
    case home
    case end
    /// Front ends without keys (line prompts): focus this item of the Tab order.
    case focus(Int)
    /// Front ends without keys: the focused field's whole value — text as if cleared and
    /// pasted (filtered and cut the same way), a widget's value as chosen.
    case setValue(Value)
}

/// What the runtime found on disk at launch.
public struct Launch: Equatable, Sendable {
    public var session: Session?
    public var progress: SavedProgress?
    /// A fresh placeholder for analytics, used unless progress carries one.
    public var placeholderUserID: String
    /// Plain-language notes to show, such as a corrupt state file set aside.
    public var warnings: [String]
    /// Context values used when the saved progress has none (a pre-filled server URL).
    public var defaults: [String: Value]
    /// Seconds east of UTC, for "today" in date fields.
    public var utcOffset: Int64

    public init(
        session: Session?, progress: SavedProgress?, placeholderUserID: String, warnings: [String] = [],
        defaults: [String: Value] = [:], utcOffset: Int64 = 0
    ) {
        self.session = session
        self.progress = progress
        self.placeholderUserID = placeholderUserID
        self.warnings = warnings
        self.defaults = defaults
        self.utcOffset = utcOffset
    }
}

/// Work a refused call kept for its owner: `values` apply as a success's do (the form
/// it was typed on empties), and `note` is said until the person leaves the screen the
/// refusal lands them on.
public struct KeptWork: Equatable, Sendable {
    public var values: [String: Value]
    public var note: String

    public init(values: [String: Value], note: String) {
        self.values = values
        self.note = note
    }
}

/// A failed service call, as the engine sees it.
public struct ServiceFailure: Error, Equatable, Sendable {
    /// A stable code: a `ServiceError.Code`.
    public var code: String
    public var message: String
    public var retryAfter: Int?
    /// Who the call made this device before it failed (a guest on this device,
    /// registered on the way): kept, so the next call does not register it again.
    public var session: Session?
    /// What the call kept before the service refused it (a ruck kept on this device for
    /// the account whose session ended): the person's work is not lost, so it is no
    /// longer a draft, and they are told where it is.
    public var kept: KeptWork?

    public init(code: String, message: String, retryAfter: Int? = nil, session: Session? = nil, kept: KeptWork? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.session = session
        self.kept = kept
    }

    public var isTransient: Bool {
        ServiceError.Code(rawValue: code)?.isTransient ?? false
    }

    public var isUnreachable: Bool {
        ServiceError.Code(rawValue: code)?.isUnreachable ?? false
    }
}

/// What a successful call gives back to the flow.
public struct CallOutput: Equatable, Sendable {
    public var session: Session?
    public var values: [String: Value]
    /// The user logged out: the flow forgets everything it kept on this device.
    public var signedOut: Bool

    public init(session: Session? = nil, values: [String: Value] = [:], signedOut: Bool = false) {
        self.session = session
        self.values = values
        self.signedOut = signedOut
    }
}

public enum FlowEvent: Equatable, Sendable {
    case launched(Launch)
    case intent(Intent)
    case callFinished(id: Int, result: Result<CallOutput, ServiceFailure>)
    /// The process was stopped (Ctrl-Z) and continued.
    case resumed
    /// Time passed; lets the engine retry a renewal that is due.
    case tick
    /// QA: show this screen now, whatever was under way.
    case jump(String)
    /// The run is ending (a signal, the end of input): keep what is typed so far.
    case closing
    /// A file could not be written or removed: said on every screen from now on.
    case storageFailed(String)
    /// QA moved the clock: renewals due at the new time start at once.
    case clockMoved
    /// QA: forget everything this flow keeps on the device and launch it afresh.
    case reset(Launch)
}

/// A service call for the runtime to make.
public struct CallRequest: Equatable, Sendable {
    public var id: Int
    public var operation: Operation
    public var session: Session?
    /// Context text values the operation reads (see `Operation.inputs`).
    public var inputs: [String: String]
    /// The service address the flow chose (its `service_url`), or nil for the default.
    public var service: String?
    /// Profile saves: the values of the fields on the screen the call was made from.
    public var fields: [String: Value]
    /// Calls that create or spend something: the same for every retry of one intent.
    public var idempotencyKey: String?

    public init(
        id: Int, operation: Operation, session: Session?, inputs: [String: String], service: String? = nil, fields: [String: Value] = [:]
    ) {
        self.id = id
        self.operation = operation
        self.session = session
        self.inputs = inputs
        self.service = service
        self.fields = fields
    }
}

/// An analytics event. The runtime adds `app_version` when writing it.
public struct AnalyticsRecord: Equatable, Sendable {
    public enum Property: Equatable, Sendable {
        case text(String)
        case number(Int64)
    }

    public var name: String
    /// The spec's `user_id`: the service's id once there is one, the placeholder before.
    public var userID: String
    /// The device's placeholder for this run, on every event: the one person a funnel
    /// follows from the first screen to the last, before and after an account exists.
    public var anonymousID: String
    /// The screen the person was on (the one arrived at, for an arrival).
    public var screen: String?
    public var timestamp: Int64
    public var properties: [String: Property]

    public init(
        name: String, userID: String, anonymousID: String? = nil, screen: String? = nil, timestamp: Int64,
        properties: [String: Property] = [:]
    ) {
        self.name = name
        self.userID = userID
        self.anonymousID = anonymousID ?? userID
        self.screen = screen
        self.timestamp = timestamp
        self.properties = properties
    }
}

/// Side effects as values: the reducer never performs them.
public enum Effect: Equatable, Sendable {
    case call(CallRequest)
    case saveSession(Session?)
    case saveProgress(SavedProgress?)
    case track(AnalyticsRecord)
    /// Rewrites earlier events' placeholder user id with the id the service assigned.
    case backfillAnalytics(placeholder: String, userID: String)
    /// Deletes everything the flow keeps on this device (logout).
    case forgetLocalData
    /// Consent withdrawn: the events recorded under it are deleted (ABBY's "Continue
    /// Without Analytics" after an earlier Agree).
    case forgetAnalytics
    case quit
    /// The user reached a screen, a call's result branch or a validation message: QA's
    /// coverage of the flow.
    case reached(Reach)
}
