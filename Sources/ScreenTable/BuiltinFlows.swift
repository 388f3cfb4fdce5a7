import Foundation
import Installation

/// The flows that ship inside Onboard, as package resources.
public enum BuiltinFlows {
    /// Ids in the order the picker lists them.
    public static let ids = builtinFlowIDs

    public static func url(for id: String) -> URL? {
        Bundle.module.url(forResource: id, withExtension: "yaml", subdirectory: "BuiltinFlows")
    }

    /// A built-in flow, from its compiled form (`CompiledFlows`, generated from the YAML
    /// and checked against it by the tests): a launch parses nothing.
    public static func load(_ id: String) throws -> Flow {
        if let flow = CompiledFlows.flow(id) { return flow }
        guard let url = url(for: id) else {
            throw FlowFileError(problems: [
                Problem(
                    "no built-in flow named '\(id)'; built in: \(ids.joined(separator: ", "))",
                    at: SourceLocation(file: id, line: 1, column: 1))
            ])
        }
        return try FlowFiles.load(url: url, displayName: "\(id).yaml")
    }
}

/// Reading flow files from disk.
public enum FlowFiles {
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
