import InputRules

/// Something wrong with a flow file, at a place in it.
public struct Problem: Sendable, Equatable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// The compiler-style form editors and terminals link to: `file:line:column: error: …`.
    /// Inert (`madeInert`): it quotes the file's words, and a file someone sent must not
    /// colour, retitle or rewrite the terminal that checks it.
    public var description: String { "\(location): error: \(message)".madeInert() }
}

/// Loading found problems; the flow is not used.
public struct FlowFileError: Error, Sendable, CustomStringConvertible {
    public var problems: [Problem]

    /// In the order of the file, as a compiler lists them (found in the order checked).
    public init(problems: [Problem]) {
        self.problems = problems.enumerated().sorted {
            ($0.element.location.file, $0.element.location.line, $0.element.location.column, $0.offset)
                < ($1.element.location.file, $1.element.location.line, $1.element.location.column, $1.offset)
        }.map(\.element)
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
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
