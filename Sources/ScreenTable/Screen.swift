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
        self.resumable = resumable ?? (kind != .progress && kind != .error && kind != .route)
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
    }

    public var id: String
    public var kind: Kind
    public var label: String
    public var placeholder: String
    /// Longest value accepted; longer input (a paste) is cut with a message.
    public var maxLength: Int
    public var rules: [Rule]

    public init(id: String, kind: Kind = .text, label: String, placeholder: String = "", maxLength: Int = 256, rules: [Rule] = []) {
        self.id = id
        self.kind = kind
        self.label = label
        self.placeholder = placeholder
        self.maxLength = maxLength
        self.rules = rules
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
        /// A number above zero, decimals allowed (`5`, `7.5`).
        case positiveNumber = "positive_number"
        /// `http://` or `https://` with a host, or `mock://local`; no spaces.
        case url
        /// A real `YYYY-MM-DD` date.
        case date
        /// A date no later than today.
        case notFuture = "not_future"

        /// What the parameter must be, for the loader and linter.
        public var parameter: ParameterKind {
            switch self {
            case .required, .email, .positiveNumber, .url, .date, .notFuture: .none
            case .minLength, .maxLength, .digits: .count
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

    public init(go: String? = nil, message: String? = nil) {
        self.go = go
        self.message = message
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
