import Foundation
import Testing
import TestSupport
import Yams
import FlowAuthoring
import FlowFiles
import ScreenTable

/// The graph of every built-in flow holds every screen and every step of its file. What
/// the file says is read here straight from the YAML, not from the loader's `Flow`, so a
/// step the graph (or the loader) drops shows up.
@Suite struct FlowGraphTests {
    /// One step as the file writes it: from a screen, to a target, with the words that
    /// must be in the edge's label.
    struct FileStep: CustomStringConvertible {
        var from: String
        var to: String
        var label: String
        var description: String { "\(from) -> \(to) [\(label)]" }
    }

    static func fileSteps(_ id: String) throws -> (screens: [(id: String, title: String, back: Bool)], steps: [FileStep]) {
        let text = try #require(FlowFiles.builtinText(for: id))
        let root = try #require(try Yams.compose(yaml: text, .basic))
        var screens: [(String, String, Bool)] = [], steps: [FileStep] = []
        for screen in root["screens"]?.sequence ?? [] {
            let screenID = try #require(screen["id"]?.string)
            screens.append((screenID, screen["title"]?.string ?? screenID, screen["back"]?.bool == true))
            func outcomes(_ on: Node?, operation: String, label: String) {
                for (code, outcome) in on?.mapping ?? [:] {
                    let target = outcome.string ?? (outcome["back"]?.bool == true ? "(previous)" : outcome["go"]?.string ?? screenID)
                    steps.append(FileStep(from: screenID, to: target, label: "\(label)\(operation) on: \(code.string!)"))
                }
            }
            func step(_ map: Node, label: String) {
                if let target = map["go"]?.string { steps.append(FileStep(from: screenID, to: target, label: label)) }
                if map["back"] != nil { steps.append(FileStep(from: screenID, to: "(previous)", label: "\(label): back")) }
                if map["retry"] != nil { steps.append(FileStep(from: screenID, to: "(failed call)", label: "\(label): retry")) }
                if map["quit"] != nil { steps.append(FileStep(from: screenID, to: "(quit)", label: label)) }
                if map["notice"] != nil { steps.append(FileStep(from: screenID, to: screenID, label: "\(label): notice")) }
                if let operation = map["call"]?.string { outcomes(map["on"], operation: operation, label: "\(label): ") }
                for branch in map["branch"]?.sequence ?? [] {
                    steps.append(
                        FileStep(from: screenID, to: branch["go"]!.string!, label: "\(label): \(branch["when"]?.string ?? "otherwise")"))
                }
            }
            for action in screen["actions"]?.sequence ?? [] {
                var label = action["label"]!.string!
                if let key = action["key"]?.string { label += " [\(key)]" }
                if let when = action["when"]?.string { label += " if \(when)" }
                step(action, label: label)
            }
            if let choice = screen["choice"] { step(choice["then"]!, label: "pick \(choice["store"]!.string!)") }
            if let operation = screen["call"]?.string { outcomes(screen["on"], operation: operation, label: "") }
            if let poll = screen["poll"], let operation = poll["call"]?.string {
                outcomes(poll["on"], operation: operation, label: "poll ")
            }
            for branch in screen["route"]?.sequence ?? [] {
                steps.append(FileStep(from: screenID, to: branch["go"]!.string!, label: branch["when"]?.string ?? "otherwise"))
            }
            if let target = screen["resume_at"]?.string { steps.append(FileStep(from: screenID, to: target, label: "resume")) }
        }
        return (screens, steps)
    }

    /// Every `"from" -> "to" [label="…"` line of a DOT graph, labels unescaped.
    static func edges(inDot dot: String) -> [FileStep] {
        dot.split(separator: "\n").compactMap { line in
            guard let match = line.wholeMatch(of: #/  "(.+?)" -> "(.+?)" \[label="((?:[^"\\]|\\.)*)".*/#) else { return nil }
            let label = String(match.3).replacing("\\n", with: "\n").replacing("\\\"", with: "\"").replacing("\\\\", with: "\\")
            return FileStep(from: String(match.1), to: String(match.2), label: label)
        }
    }

    /// A drawn label holds a step's label as one of its lines, or, for a result, as the
    /// call's line with the code among its codes (`Join: register on: conflict, network`).
    static func label(_ drawn: String, covers step: String) -> Bool {
        drawn.split(separator: "\n").contains { line in
            if line == step { return true }
            guard let stepCall = step.range(of: " on: "), let lineCall = line.range(of: " on: "),
                step[..<stepCall.upperBound] == line[..<lineCall.upperBound]
            else { return false }
            return line[lineCall.upperBound...].split(separator: ", ").contains(step[stepCall.upperBound...])
        }
    }

    @Test(arguments: BuiltinFlows.ids)
    func theDotGraphHasEveryScreenAndStepOfTheFile(id: String) throws {
        let (screens, steps) = try Self.fileSteps(id)
        let dot = FlowGraph(flow: try BuiltinFlows.load(id)).dot()
        for (screen, title, back) in screens {
            #expect(dot.contains("  \"\(screen)\" [label=\"\(title.replacing("\"", with: "\\\""))\\n\(screen) · "), "no node for \(screen)")
            // Issue 32: Esc is said on the node, not drawn to a far "previous" corner.
            let node = dot.split(separator: "\n").first { $0.hasPrefix("  \"\(screen)\" [label=") } ?? ""
            #expect(node.contains("\\nEsc: back") == back, "\(screen): \(node)")
        }
        let drawn = Self.edges(inDot: dot)
        for step in steps {
            #expect(
                drawn.contains { $0.from == step.from && $0.to == step.to && Self.label($0.label, covers: step.label) }, "no edge \(step)")
        }
        // Nothing more than the file says, besides the launch's entries.
        let drawnSteps = drawn.filter { $0.from != "(launch)" }
        for edge in drawnSteps {
            #expect(
                steps.contains { $0.from == edge.from && $0.to == edge.to && Self.label(edge.label, covers: $0.label) },
                "edge \(edge) is in no step of the file")
        }
        #expect(!dot.contains("\\nunreachable\""))
    }

    @Test(arguments: BuiltinFlows.ids)
    func theMermaidGraphHasTheSameNodesAndEdges(id: String) throws {
        let graph = FlowGraph(flow: try BuiltinFlows.load(id))
        let mermaid = graph.mermaid()
        #expect(mermaid.hasPrefix("flowchart TD\n"))
        let lines = mermaid.split(separator: "\n")
        #expect(lines.filter { $0.contains("-->|") || $0.contains("-.->|") }.count == graph.drawnEdges.count)
        for screen in try BuiltinFlows.load(id).screens {
            #expect(mermaid.contains("<br/>\(screen.id) · \(screen.kind.rawValue)"))
        }
        // Error branches are drawn apart: dashed and red.
        let errorEdges = graph.edges.filter { $0.style == .error }
        #expect(!errorEdges.isEmpty)
        #expect(mermaid.contains("stroke:#b22222"))
    }

    /// Mermaid reads labels as HTML and `#…;` as entities: they are escaped.
    @Test func mermaidLabelsKeepAnglesAndHashes() throws {
        let yaml = SampleFlows.withUnreachableScreen.replacingOccurrences(of: "title: Lost", with: "title: \"Press <Tab> #1;\"")
        let mermaid = FlowGraph(flow: try #require(FlowLoader.draft(yaml: yaml, file: "demo.yaml").flow)).mermaid()
        #expect(mermaid.contains("Press #lt;Tab#gt; #35;1;"), "\(mermaid)")
        #expect(!mermaid.contains("<Tab>"))
    }

    @Test func anUnreachableScreenIsDrawnAndMarked() throws {
        let yaml = SampleFlows.withUnreachableScreen
        let draft = FlowLoader.draft(yaml: yaml, file: "demo.yaml")
        #expect(draft.problems.map(\.message) == ["screen 'lost' is unreachable: no entry, action or outcome leads to it"])
        let dot = FlowGraph(flow: try #require(draft.flow)).dot()
        #expect(dot.contains("\"lost\" [label=\"Lost\\nlost · info\\nunreachable\", style=\"rounded,dashed\""))
        #expect(!dot.contains("\"one\" [label=\"One\\none · info\\nunreachable\""))
    }
}
