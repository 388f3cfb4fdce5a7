import Foundation
import TestSupport
import Testing

/// Every example the guides quote as a session (a ```console block: `$ COMMAND` lines, each
/// followed by what it prints) still runs and prints what it shows. Each block runs in a
/// folder of its own, beside the repository's `examples/` and `themes/`, with the programs
/// this build made first on the PATH and nothing of the person's (state, config, keyring).
@Suite struct DocsExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One `$ COMMAND` and the lines it prints, as a guide shows them.
    struct Step {
        var command: String
        var output: [String]
    }

    struct Example: CustomTestStringConvertible {
        var file: String
        var line: Int
        var steps: [Step]
        var testDescription: String { "\(file):\(line)" }
    }

    static func examples() -> [Example] {
        let guides =
            ["README.md"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var found: [Example] = []
        for guide in guides {
            guard let text = try? String(contentsOf: root.appendingPathComponent(guide), encoding: .utf8) else { continue }
            var current: Example?
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if current == nil {
                    if line == "```console" { current = Example(file: guide, line: index + 1, steps: []) }
                } else if line == "```" {
                    found.append(current!)
                    current = nil
                } else if line.hasPrefix("$ ") {
                    current!.steps.append(Step(command: String(line.dropFirst(2)), output: []))
                } else if !current!.steps.isEmpty {
                    current!.steps[current!.steps.count - 1].output.append(String(line))
                }
            }
        }
        return found
    }

    /// The folder of the programs this build made (beside the test bundle).
    static let programs = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path

    @Test func theGuidesQuoteSessions() {
        #expect(Self.examples().count >= 2)
    }

    @Test(arguments: examples()) func anExampleRunsAndPrintsWhatItShows(example: Example) async throws {
        let folder = NSTemporaryDirectory() + "onboard-docs-\(UUID().uuidString)"
        for sub in ["home", "state", "config"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for shared in ["examples", "themes"] {
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/" + shared, withDestinationPath: Self.root.appendingPathComponent(shared).path)
        }
        for step in example.steps {
            let environment = [
                "PATH=\(Self.programs):/usr/bin:/bin", "HOME=\(folder)/home", "XDG_STATE_HOME=\(folder)/state",
                "XDG_CONFIG_HOME=\(folder)/config", "ONBOARD_SECRET_STORE=file", "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1",
            ]
            let run = await Subprocess.run(
                "/usr/bin/env", ["-i"] + environment + ["/bin/sh", "-c", "cd \"$0\" && \(step.command) 2>&1", folder])
            let printed = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).reversed().drop {
                $0.isEmpty
            }
            .reversed()
            #expect(
                Array(printed) == step.output,
                "\(example.file):\(example.line): `\(step.command)` printed:\n\(run.output)")
        }
    }
}
