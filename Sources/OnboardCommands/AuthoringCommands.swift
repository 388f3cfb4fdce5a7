import ArgumentParser
import FlowAuthoring
import FlowEngine
import Installation
import OnboardRuntime
import ScreenTable
import TerminalUI

/// `onboard graph`: the flow as a picture, for the people who write flows.
struct Graph: ParsableCommand, UsesFileTools {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw a flow: each screen a node, each step an edge labelled with its button or result code.",
        discussion: """
            dot is Graphviz's language (dot -Tpng); mermaid pastes into Markdown on GitHub \
            and GitLab; svg runs Graphviz's dot for you. Error and fault branches are dashed \
            and red, Back and Try Again dotted, unreachable screens dashed and marked.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case dot, mermaid, svg
    }

    @Argument(help: "A built-in flow id (see 'onboard flows').")
    var flow: String?

    @Option(name: .customLong("flow"), help: "Draw the flow in this file instead; drawn even when lint finds problems.")
    var flowFile: String?

    @Option(help: "dot, mermaid or svg.")
    var format: Format = .dot

    var needsFileTools: Bool { flowFile != nil || format == .svg }

    func run() throws {
        let graph = FlowGraph(flow: try draftFlow(id: flow, file: flowFile))
        switch format {
        case .dot: print(graph.dot(), terminator: "")
        case .mermaid: print(graph.mermaid(), terminator: "")
        case .svg: print(try InstalledFileTools.required().svg(graph.dot()), terminator: "")
        }
        // Drawn, so the mistake is seen in place, but not a graph of a working flow.
        if !graph.missingScreens.isEmpty {
            // The names come from the file: made inert before they reach the terminal.
            printError(
                "onboard graph: no screen named \(graph.missingScreens.map { "'\(TerminalText.safe($0))'" }.joined(separator: ", ")) in this flow (drawn red)"
            )
            throw ExitCode(1)
        }
    }
}

/// A built-in flow, or a file's flow as far as it reads: its problems are said on
/// standard error, and only a file with no flow at all is an error.
func draftFlow(id: String?, file: String?) throws -> Flow {
    guard let file else { return try loadFlow(id: id, file: nil) }
    let draft: (flow: Flow?, problems: [Problem])
    do {
        draft = try InstalledFileTools.required().draft(file: file)
    } catch let error as FlowFileError {
        printError(error.description)
        throw ExitCode(1)
    }
    for problem in draft.problems { printError(problem.description) }
    guard let flow = draft.flow else { throw ExitCode(1) }
    return flow
}

/// `onboard schema`: JSON Schemas for editors.
struct SchemaCommand: ParsableCommand, UsesFileTools {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of flow or theme files, for an editor's YAML language server.",
        discussion: """
            Save it and name it in the file's first line:
              onboard schema flow > flow.schema.json
              # yaml-language-server: $schema=flow.schema.json
            """)

    @Argument(help: "flow or theme.")
    var kind: SchemaKind

    var needsFileTools: Bool { true }

    func run() throws {
        print(try InstalledFileTools.required().schema(kind), terminator: "")
    }
}

/// `onboard coverage`: what QA has reached of a flow in a state folder, and how to reach
/// the rest.
struct CoverageCommand: ParsableCommand, UsesFileTools {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Show which screens, result branches and validation messages of a flow have been reached, and how to reach the rest.",
        discussion: """
            Every run counts, on screen or headless (--keys), in the same state folder; \
            resetting a flow keeps the count, 'onboard reset' with no flow clears it.
            """)

    @Argument(help: "A built-in flow id.")
    var flow: String?

    @Option(name: .customLong("flow"), help: "A flow file instead.")
    var flowFile: String?

    @Flag(help: "Print JSON: every item with its id, kind, screen, title, how to reach it and whether it was seen.")
    var json = false

    @Flag(help: "List only what is not yet seen.")
    var unseen = false

    @Flag(help: "Forget what was seen and start counting afresh.")
    var clear = false

    @OptionGroup var folder: FolderOption

    var needsFileTools: Bool { flowFile != nil }

    func run() throws {
        let flow = try loadFlow(id: self.flow, file: flowFile)
        let log = CoverageLog(stateDirectory: folder.stateFolder(), flowID: flow.id)
        if clear {
            try log.clear()
            print("Cleared the coverage of \(flow.id) in \(folder.stateFolder()).")
            return
        }
        let report = CoverageReport(map: CoverageMap(flow: flow), seen: log.seen())
        print(json ? report.json() : report.text(showingSeen: !unseen), terminator: "")
    }
}
