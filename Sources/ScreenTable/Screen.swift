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

/// An input on a form screen. Its value lives in the flow context under `id`.
public struct Field: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case text, email, password, phone, code
        /// `YYYY-MM-DD`, today by default; Left/Right change the day, PageUp/PageDown the
        /// month, Home/End the year.
        case date
        /// A service address: `http(s)://…` or `mock://local`.
        case url
        /// One of `options`; Left/Right or a letter changes it.
        case select
        /// Any of `options` (pills); Left/Right move, Space toggles. The value is a list.
        case multi
        /// A whole number from `min` to `max`; Left/Right, PageUp/PageDown, or digits.
        case slider
        /// Two whole numbers `low-high` from `min` to `max`; Space switches handle.
        case range
    }

    public var id: String
    public var kind: Kind
    public var label: String
    public var placeholder: String
    /// Longest value accepted; longer input (a paste) is cut with a message.
    public var maxLength: Int
    public var rules: [Rule]
    /// Select and multi fields: what can be picked.
    public var options: [String] = []
    /// Select and multi fields: a context list to pick from instead (filled by a call).
    public var optionsFrom: String?
    /// Multi fields: an option that stands alone ("No preference"): picking it clears the
    /// others, and picking another clears it.
    public var exclusive: String?
    /// Slider and range fields: the bounds.
    public var minimum = 0
    public var maximum = 100
    /// The value before the user changes it (a slider's starting point).
    public var initial: String?
    /// Date fields: show the age the date gives, beside it.
    public var showsAge = false
    /// Code fields: press the screen's first button once every box is filled.
    public var submitsWhenFull = false

    public init(id: String, kind: Kind = .text, label: String, placeholder: String = "", maxLength: Int = 256, rules: [Rule] = []) {
        self.id = id
        self.kind = kind
        self.label = label
        self.placeholder = placeholder
        self.maxLength = maxLength
        self.rules = rules
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

/// A named validation rule with its parameter and the exact message the spec gives.
public struct Rule: Sendable, Equatable {
    public enum Name: String, Sendable, CaseIterable {
        case required
        case minLength = "min_length"
        case maxLength = "max_length"
        case email
        case digits
        case matches
        /// A number above zero, decimals allowed (`5`, `7.5`), written as people write
        /// numbers (no `1e9`, `inf` or `0x10`).
        case positiveNumber = "positive_number"
        /// `http://` or `https://` with a host, or `mock://local`; no spaces.
        case url
        /// A real `YYYY-MM-DD` date.
        case date
        /// A date no later than today.
        case notFuture = "not_future"
        /// Letters of any script and spaces only.
        case letters
        /// Letters of any script, digits and spaces only.
        case alphanumeric
        /// A national phone number: 4 to 14 digits.
        case phone
        /// A date of birth at least / at most this many years ago.
        case minAge = "min_age"
        case maxAge = "max_age"
        /// Slider and range: the (low) number is at least this.
        case minValue = "min_value"
        /// A typed number (decimals allowed) is at most this: 1440 minutes, not 1e9.
        case maxValue = "max_value"
        /// Range: the high number is not below the low one.
        case ordered
        /// Multi: at least this many picked.
        case minSelected = "min_selected"

        /// What the parameter must be, for the loader and linter.
        public var parameter: ParameterKind {
            switch self {
            case .required, .email, .positiveNumber, .url, .date, .notFuture, .letters, .alphanumeric, .phone, .ordered: .none
            case .minLength, .maxLength, .digits, .minAge, .maxAge, .minValue, .maxValue, .minSelected: .count
            case .matches: .fieldID
            }
        }
    }

    public enum ParameterKind: Sendable { case none, count, fieldID }

    public var name: Name
    public var count: Int?
    public var field: String?
    public var message: String

    public init(_ name: Name, count: Int? = nil, field: String? = nil, message: String) {
        self.name = name
        self.count = count
        self.field = field
        self.message = message
    }
}

/// A button (and optionally a shortcut key) and what it does.
public struct Action: Sendable, Equatable {
    public var label: String
    public var key: Character?
    public var step: Step
    /// Shown only when this holds.
    public var when: Guard?
    /// Whether pressing it checks the form's fields first; false for buttons that lead
    /// away without using them (Cancel, Use Another Method).
    public var validates = true
    /// Context values set when pressed, before the step runs (a consent answer).
    public var sets: [String: String] = [:]
    /// Seconds after arriving (or the screen's last successful call) before it can be
    /// pressed; the button counts down meanwhile (Resend).
    public var cooldown: Int64?
    /// Drawn as a text link after this prompt, on its own line below the buttons
    /// ("Already have an account? Log in"), rather than as a button.
    public var linkPrompt: String?
    public var location: SourceLocation?

    public init(label: String, key: Character? = nil, step: Step, when: Guard? = nil, location: SourceLocation? = nil) {
        self.label = label
        self.key = key
        self.step = step
        self.when = when
        self.location = location
    }
}

/// What an action or a pick does.
public enum Step: Sendable, Equatable {
    case go(String)
    case back
    case call(ServiceCall)
    /// Runs the call that last failed again, from where it was made.
    case retry
    /// Shows a short message on the current screen.
    case notice(String)
    case quit
    /// Goes to the first target whose guard holds (a nil guard always holds).
    case branch([Branch])
}

public struct Branch: Sendable, Equatable {
    public var when: Guard?
    public var go: String

    public init(when: Guard?, go: String) {
        self.when = when
        self.go = go
    }
}

public struct Choice: Sendable, Equatable {
    public enum Options: Sendable, Equatable {
        case fixed([String])
        /// A list in the flow context, filled by a service call.
        case context(String)
    }

    public var options: Options
    /// Context key the picked option is stored under.
    public var store: String
    public var then: Step

    public init(options: Options, store: String, then: Step) {
        self.options = options
        self.store = store
        self.then = then
    }
}

/// A named service operation and where each of its results leads.
public struct ServiceCall: Sendable, Equatable {
    public var operation: Operation
    /// Keyed by `success`, a service error code, or `error` for any other failure.
    public var outcomes: [String: Outcome]

    public init(operation: Operation, outcomes: [String: Outcome]) {
        self.operation = operation
        self.outcomes = outcomes
    }

    /// The outcome for a result: the exact code first, then the `error` fallback.
    public func outcome(for code: String) -> Outcome? {
        outcomes[code] ?? (code == "success" ? nil : outcomes["error"])
    }
}

public struct Outcome: Sendable, Equatable {
    /// The screen to go to; nil stays on the current screen.
    public var go: String?
    /// A message shown on the screen the outcome leads to.
    public var message: String?
    /// Back to the screen before (Set Username returns to the Profile it came from).
    public var back = false
    /// The field the failure is about: the message goes under it and focus moves there,
    /// so what is typed next lands in it (ABBY: a number the service refuses).
    public var field: String?

    public init(go: String? = nil, message: String? = nil, back: Bool = false) {
        self.go = go
        self.message = message
        self.back = back
    }
}

public struct SourceLocation: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}
