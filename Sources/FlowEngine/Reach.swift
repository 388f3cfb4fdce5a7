import ScreenTable

/// Something of a flow a person can reach: a screen, one result branch of a call (its
/// `on:` code), one validation message. The engine reports each as it happens
/// (`Effect.reached`); QA's coverage counts them against every one the table declares.
public enum Reach: Hashable, Sendable {
    case screen(String)
    /// The branch the engine took: the code itself, or `error` for a code with no branch.
    case result(screen: String, operation: String, code: String)
    /// A field's rule failed and its message was shown.
    case message(screen: String, field: String, rule: String)

    /// One line, stable across runs: how the coverage file and `--json` name it.
    public var id: String {
        switch self {
        case .screen(let screen): "screen \(screen)"
        case .result(let screen, let operation, let code): "result \(screen) \(operation) \(code)"
        case .message(let screen, let field, let rule): "message \(screen) \(field) \(rule)"
        }
    }

    public init?(id: String) {
        let words = id.split(separator: " ").map(String.init)
        switch (words.first, words.count) {
        case ("screen", 2): self = .screen(words[1])
        case ("result", 4): self = .result(screen: words[1], operation: words[2], code: words[3])
        case ("message", 4): self = .message(screen: words[1], field: words[2], rule: words[3])
        default: return nil
        }
    }

    public var screen: String {
        switch self {
        case .screen(let screen), .result(let screen, _, _), .message(let screen, _, _): screen
        }
    }
}
