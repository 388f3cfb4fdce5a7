import Installation

/// The flows that ship inside Onboard, compiled to Swift (`CompiledFlows`, generated from
/// their YAML in `FlowFiles` and checked against it by the tests): a launch parses
/// nothing and reads no file.
public enum BuiltinFlows {
    /// Ids in the order the picker lists them.
    public static let ids = builtinFlowIDs

    public static func load(_ id: String) throws -> Flow {
        if let flow = CompiledFlows.flow(id) { return flow }
        throw unknown(id)
    }

    /// What is said of a name no built-in flow has.
    public static func unknown(_ id: String) -> FlowFileError {
        FlowFileError(problems: [
            Problem(
                "no built-in flow named '\(id)'; built in: \(ids.joined(separator: ", "))",
                at: SourceLocation(file: id, line: 1, column: 1))
        ])
    }
}
