import ArgumentParser
import FoundationEssentials
import Installation
import OnboardRuntime
import ScreenTable

/// Loads a flow named on the command line: a built-in id, or a file with `--flow`.
func loadFlow(id: String?, file: String?) throws -> Flow {
    if file == nil, let id, !BuiltinFlows.ids.contains(id) {
        printError("onboard: \(notABuiltinFlow(id))")
        throw ExitCode(1)
    }
    do {
        if let file { return try InstalledFileTools.required().flow(file: file) }
        return try BuiltinFlows.load(id ?? "oklah")
    } catch let error as FlowFileError {
        printError(error.description)
        throw ExitCode(1)
    }
}

/// Said when a name on the command line is no built-in flow: a file goes with `--flow`
/// (named, when one by that name is here), and where the built-in flows' YAML is.
func notABuiltinFlow(_ name: String) -> String {
    let candidates = [name, name + ".yaml", name + ".yml", "examples/\(name).yaml"]
    let file = candidates.first { FileManager.default.fileExists(atPath: $0) } ?? "FILE"
    return "'\(name)' is not a built-in flow (those are \(BuiltinFlows.ids.joined(separator: ", "))). "
        + "A flow file goes with --flow: --flow \(file). To start from a built-in flow's YAML: onboard flows ID > FILE."
}
