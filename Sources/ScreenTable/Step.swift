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
    /// Seconds after its call last succeeded (anywhere: Send Code, then Resend), else after
    /// arriving (or the screen's last successful call), before it can be pressed; the
    /// button counts down meanwhile (Resend).
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

    public init(go: String? = nil, message: String? = nil, back: Bool = false, field: String? = nil) {
        self.go = go
        self.message = message
        self.back = back
        self.field = field
    }
}
