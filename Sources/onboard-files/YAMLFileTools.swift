import FileSchemas
import FlowFiles
import Foundation
import OnboardCommands
import ScreenTable
import TerminalUI
import ThemeFiles

/// The file tools over the YAML readers (Yams, and Foundation with it).
struct YAMLFileTools: FileTools {
    func flow(file: String) throws -> Flow {
        try FlowFiles.load(url: URL(fileURLWithPath: file), displayName: file)
    }

    func draft(file: String) throws -> (flow: Flow?, problems: [Problem]) {
        try FlowFiles.draft(url: URL(fileURLWithPath: file), displayName: file)
    }

    func theme(_ choice: String?, environment: [String: String]) throws -> Theme {
        try ThemeFiles.load(choice, environment: environment)
    }

    func themeFile(_ choice: String, environment: [String: String]) -> String? {
        ThemeFiles.file(choice, environment: environment)
    }

    func themes(environment: [String: String]) -> (names: [String], userFolder: String) {
        (ThemeFiles.available(environment: environment), ThemeFiles.userFolder(environment: environment))
    }

    func builtinText(for id: String) -> String? {
        FlowFiles.builtinText(for: id)
    }

    func schema(_ kind: SchemaKind) -> String {
        (kind == .flow ? FileSchema.flow : FileSchema.theme).json()
    }

    func svg(_ dot: String) throws -> String {
        try Graphviz.svg(dot)
    }
}
