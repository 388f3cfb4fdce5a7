import FoundationEssentials
import ScreenTable

/// The lines started most, read without ArgumentParser: `onboard` (or `onboard pick`), the
/// picker, and `onboard run ID` with a built-in flow's id, each with at most a state
/// folder after (`--state-dir DIR` or `--state-dir=DIR`).
///
/// ArgumentParser builds its view of `run`'s two dozen options by reflection, and the
/// Swift runtime meeting those types for the first time was a fifth of a relaunch's CPU
/// (`benchmarks/README.md`). Any other line — another option, help, a mistake, a value
/// the checks refuse — is left to ArgumentParser, so every message is its own.
/// `PlainRunLineTests` holds what this reads to what ArgumentParser makes of the line.
struct PlainRunLine: Equatable {
    /// The built-in flow to run; nil: the picker.
    var flow: String?
    var settings = RunSettings()

    init?(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) {
        var rest = arguments[...]
        switch rest.first {
        case "run":
            guard rest.count >= 2, BuiltinFlows.ids.contains(rest[rest.startIndex + 1]) else { return nil }
            flow = rest[rest.startIndex + 1]
            rest = rest.dropFirst(2)
        case "pick": rest = rest.dropFirst()
        default: break
        }
        let prefix = "--state-dir="
        if rest.count == 2, rest.first == "--state-dir", let folder = rest.last, !folder.isEmpty, !folder.hasPrefix("-") {
            settings.stateDirectory = folder
        } else if rest.count == 1, let option = rest.first, option.hasPrefix(prefix), option.count > prefix.count {
            settings.stateDirectory = String(option.dropFirst(prefix.count))
        } else if !rest.isEmpty {
            return nil
        }
        // ArgumentParser's checks (the environment's secret store and service): a line
        // that fails one is its to say.
        guard (try? settings.validate(environment: environment)) != nil else { return nil }
    }

    /// Runs the line, in the environment it was read in.
    func run(environment: [String: String]) throws {
        if let flow {
            try Run.run(flow: flow, file: nil, settings: settings, environment: environment)
        } else {
            try Pick.run(settings, environment: environment)
        }
    }
}
