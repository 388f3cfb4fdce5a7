import ArgumentParser
import Installation
import ScreenTable
import Synchronization
import TerminalUI

/// What needs all of Foundation: reading the YAML people write (flow files, theme files,
/// the built-in flows' own text), the files' JSON Schemas, and Graphviz for `graph
/// --format svg`. `onboard` has none of it, so Foundation and ICU stay off its start
/// (issue 50); a command that needs them runs in `onboard-files`, the same commands with
/// these tools, by exec (DECISIONS 56).
public protocol FileTools: Sendable {
    /// The flow in a file; its problems as `FlowFileError`.
    func flow(file: String) throws -> Flow
    /// A file's flow as far as it reads, and its problems (for `graph`).
    func draft(file: String) throws -> (flow: Flow?, problems: [Problem])
    /// A built-in theme, the user's own by name, or a theme file.
    func theme(_ choice: String?, environment: [String: String]) throws -> Theme
    /// The file a theme choice reads; nil for a built-in theme or no such file.
    func themeFile(_ choice: String, environment: [String: String]) -> String?
    /// Every theme on offer (built in, then the user's), and the user's folder.
    func themes(environment: [String: String]) -> (names: [String], userFolder: String)
    /// A built-in flow's YAML, to start a flow file from.
    func builtinText(for id: String) -> String?
    /// The JSON Schema of `flow` or `theme` files.
    func schema(_ kind: SchemaKind) -> String
    /// Graphviz's `dot -Tsvg` of a graph in dot.
    func svg(_ dot: String) throws -> String
}

/// The files `onboard schema` describes.
public enum SchemaKind: String, CaseIterable, Sendable, ExpressibleByArgument {
    case flow, theme
}

/// A command that, with the arguments it was given, reads a file person wrote (or needs
/// another of the tools): `onboard` runs it in `onboard-files`.
protocol UsesFileTools {
    var needsFileTools: Bool { get }
}

enum InstalledFileTools {
    private static let tools = Mutex<(any FileTools)?>(nil)

    /// `onboard-files`' tools; nil in `onboard`.
    static var current: (any FileTools)? {
        get { tools.withLock { $0 } }
        set { tools.withLock { $0 = newValue } }
    }

    /// The tools, where a command runs only once `onboard` has handed it on.
    static func required() throws -> any FileTools {
        guard let current else {
            printError("onboard: this command reads files, which onboard-files does; it was not handed on")
            throw ExitCode(70)  // EX_SOFTWARE
        }
        return current
    }

    /// Replaces this process with `onboard-files` beside it, on the command line being
    /// run (a session forked by a zygote has its own, not the process's `CommandLine`).
    static func handOn(_ arguments: [String]) throws {
        try becomeSibling("onboard-files", saying: "onboard", arguments)
    }
}

/// A theme choice (`--theme`): what it means without a file (`Themes.chosen`) is answered
/// here; any other name or a path is a file, read by the tools.
enum ThemeChoice {
    static func load(_ choice: String?, environment: [String: String]) throws -> Theme {
        if let theme = Themes.chosen(choice, environment: environment) { return theme }
        return try InstalledFileTools.required().theme(choice, environment: environment)
    }

    /// Whether the choice reads a file (a theme the tools must read).
    static func readsAFile(_ choice: String?) -> Bool {
        choice.map { !Themes.builtinNames.contains($0) } ?? false
    }
}
