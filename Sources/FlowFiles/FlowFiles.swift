import Foundation
import ScreenTable

/// Reading flow files from disk.
public enum FlowFiles {
    /// A built-in flow's YAML as it is written in `BuiltinFlows/` (`onboard flows ID`
    /// prints it to start a flow file from). Compiled in (`CompiledFlowTexts`, generated and
    /// checked by the tests), not a package resource: an installed binary has no build
    /// folder to find one in.
    public static func builtinText(for id: String) -> String? {
        CompiledFlowTexts.text(id)
    }

    /// A built-in flow read from its YAML, as a flow file is.
    public static func builtin(_ id: String) throws -> Flow {
        guard let text = builtinText(for: id) else { throw BuiltinFlows.unknown(id) }
        return try FlowLoader.load(yaml: text, file: "\(id).yaml").get()
    }

    public static func load(url: URL, displayName: String? = nil) throws -> Flow {
        let name = displayName ?? url.path
        return try FlowLoader.load(yaml: text(of: url, name: name), file: name).get()
    }

    /// The flow as far as it reads, with every problem (`FlowLoader.draft`); a file that
    /// cannot be read throws.
    public static func draft(url: URL, displayName: String? = nil) throws -> (flow: Flow?, problems: [Problem]) {
        let name = displayName ?? url.path
        return FlowLoader.draft(yaml: try text(of: url, name: name), file: name)
    }

    private static func text(of url: URL, name: String) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw FlowFileError(problems: [
                Problem("cannot read the file: \(error.localizedDescription)", at: SourceLocation(file: name, line: 1, column: 1))
            ])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FlowFileError(problems: [Problem("the file is not UTF-8 text", at: SourceLocation(file: name, line: 1, column: 1))])
        }
        return text
    }
}
