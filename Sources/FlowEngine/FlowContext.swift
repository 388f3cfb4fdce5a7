import ScreenTable

/// What the person typed and chose, and what the service told: the values screens show,
/// rules judge and calls send, by key. Read by key anywhere; changed only through the
/// operations below, each named for who changes it and why, so "what wrote this key?"
/// has one file to answer it.
public struct FlowContext: Equatable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var values: [String: Value]

    public init(_ values: [String: Value] = [:]) { self.values = values }
    public init(dictionaryLiteral elements: (String, Value)...) { values = Dictionary(elements) { _, last in last } }

    public subscript(key: String) -> Value? { values[key] }
    public var keys: Dictionary<String, Value>.Keys { values.keys }
    public var isEmpty: Bool { values.isEmpty }
    public func makeIterator() -> Dictionary<String, Value>.Iterator { values.makeIterator() }

    // MARK: The person

    /// An answer: a field's value, an option picked, a button's `set` (nil forgets it).
    /// Public for front ends that stand in for the person (the gallery's samples).
    public mutating func answer(_ key: String, _ value: Value?) { values[key] = value }

    /// Answers that must not outlive their use: a password once its screen is left, a
    /// code once withdrawn.
    mutating func forget<Keys: Sequence<String>>(_ keys: Keys) {
        for key in keys { values[key] = nil }
    }

    // MARK: The service

    /// What a call answered (its outputs), over anything older under the same keys.
    mutating func record(_ outputs: [String: Value]) { values.merge(outputs) { _, new in new } }

    /// The last failure, for the screens that say it (`{error_message}`).
    mutating func recordFailure(code: String, message: String) {
        values["error_code"] = .text(code)
        values["error_message"] = .text(message)
    }

    /// The last failure is over: its code and message are not progress to keep.
    mutating func forgetFailure() { forget(["error_code", "error_message"]) }

    // MARK: Retries

    /// The idempotency key an intent's calls share until it ends (nil: it ended).
    mutating func holdKey(_ name: String, _ key: Value?) { values[name] = key }

    // MARK: The run's life

    /// A relaunch takes up the saved progress's values.
    mutating func restore(_ saved: [String: Value]) { values = saved }

    /// The flow's defaults where nothing is kept yet (a server URL given on the command line).
    mutating func fillDefaults(_ defaults: [String: Value]) {
        for (key, value) in defaults where values[key] == nil { values[key] = value }
    }

    /// A sign-out or a new account keeps only what still belongs to whoever is left.
    mutating func keepOnly(where kept: (String) -> Bool) { values = values.filter { kept($0.key) } }
}

extension FlowState {
    /// The person answered a field: the value is kept and the error under it, which
    /// spoke of the old value, goes.
    mutating func answer(_ field: String, _ value: Value?) {
        context.answer(field, value)
        form.clearError(under: field)
    }
}
