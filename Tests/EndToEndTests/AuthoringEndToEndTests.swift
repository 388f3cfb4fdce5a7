import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// `onboard graph`, `onboard schema` and `onboard coverage` as flow authors and QA
    /// run them, and the QA console's "Seen / not yet seen" page in a real terminal.
    @Suite struct AuthoringEndToEndTests {
        static let scripts = Tmux.packageRoot + "/examples/scripts"

        func onboard(_ arguments: [String], environment: [String] = []) -> (status: Int32, output: String) {
            Subprocess.run("/usr/bin/env", ["LANG=C.UTF-8", "ONBOARD_SECRET_STORE=file"] + environment + [Tmux.binary] + arguments)
        }

        @Test func aGraphIsDrawnAsSVGWithGraphvizAndSaysHowToInstallItWithout() throws {
            let svg = onboard(["graph", "babybasics", "--format", "svg"])
            #expect(svg.status == 0, "\(svg.output.prefix(500))")
            #expect(svg.output.contains("<svg"))
            #expect(svg.output.contains("Welcome to Baby Basics"))
            let mermaid = onboard(["graph", "oklah", "--format", "mermaid"])
            #expect(mermaid.output.hasPrefix("flowchart TD\n"))
            // No Graphviz on PATH: a plain error that names the package, exit 1.
            let without = Subprocess.run("/usr/bin/env", ["PATH=/nonexistent", Tmux.binary, "graph", "oklah", "--format", "svg"])
            #expect(without.status == 1)
            #expect(without.output.contains("needs Graphviz's dot, which is not installed"))
            #expect(without.output.contains("apt-get install graphviz"))
        }

        /// Issue 50: `onboard` hands a command that reads a flow file to `onboard-files`
        /// beside it; without it, that is said in one line and nothing else starts.
        @Test func aCommandThatReadsFilesSaysWhenOnboardFilesIsMissing() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alone-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.copyItem(atPath: Tmux.binary, toPath: folder + "/onboard")
            let lint = Subprocess.run(folder + "/onboard", ["lint", Tmux.packageRoot + "/examples/nickname.yaml"])
            #expect(lint.status == 1)
            let said = "onboard: cannot start \(folder)/onboard-files (No such file or directory); it is built with onboard (swift build)"
            #expect(lint.output == said + " and must sit beside it.\n", "\(lint.output)")
            // What needs no file runs alone.
            let flows = Subprocess.run(folder + "/onboard", ["flows"])
            #expect(flows.status == 0 && flows.output.hasPrefix("oklah "), "\(flows.output)")
            // Beside it, the same command runs there.
            #expect(onboard(["lint", Tmux.packageRoot + "/examples/nickname.yaml"]).output.contains("nickname.yaml: ok"))
        }

        @Test func aFlowFileLintTurnsDownIsStillDrawnWithItsProblemsSaid() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("lost-\(UUID().uuidString).yaml").path
            try SampleFlows.withUnreachableScreen.write(toFile: file, atomically: true, encoding: .utf8)
            let run = onboard(["graph", "--flow", file])
            #expect(run.status == 0)
            #expect(run.output.contains("\(file):10:5: error: screen 'lost' is unreachable"))
            #expect(run.output.contains("\"lost\" [label=\"Lost\\nlost · info\\nunreachable\""))
        }

        /// Issue 32: a step naming a screen the file does not have was drawn as a normal
        /// node in DOT (exit 0) and crashed Mermaid. Both draw it red, named, and exit 1.
        @Test(arguments: ["dot", "mermaid"]) func aStepToAMissingScreenIsDrawnRedAndFails(format: String) throws {
            let yaml = try String(contentsOfFile: Tmux.packageRoot + "/examples/nickname.yaml", encoding: .utf8)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("typo-\(UUID().uuidString).yaml").path
            try yaml.replacingOccurrences(of: "go: ask", with: "go: aks").write(toFile: file, atomically: true, encoding: .utf8)
            let run = onboard(["graph", "--flow", file, "--format", format])
            #expect(run.status == 1, "\(run.output.suffix(800))")
            #expect(run.output.contains("no screen named 'aks'"))
            #expect(run.output.contains("missing: aks"))
            #expect(!run.output.contains("Fatal error"))
        }

        /// Issue 32: `onboard coverage nickname` and `onboard lint abby` answered with
        /// `file:1:1` errors for things that are not files. They say what the name is, point
        /// to `--flow FILE` (naming the file when there is one) and to a built-in flow's YAML.
        @Test func aNameThatIsNotAFileOrABuiltinFlowIsSaidPlainly() throws {
            let coverage = onboard(["coverage", "nickname"])
            #expect(coverage.status == 1)
            #expect(coverage.output.contains("'nickname' is not a built-in flow"), "\(coverage.output)")
            #expect(coverage.output.contains("--flow examples/nickname.yaml"), "\(coverage.output)")
            #expect(!coverage.output.contains(":1:1"))
            let lint = onboard(["lint", "abby", "no-such.yaml"])
            #expect(lint.status == 1)
            #expect(
                lint.output.contains(
                    "abby: a built-in flow, not a file; it is checked when Onboard is built. Its YAML: onboard flows abby > abby.yaml"),
                "\(lint.output)")
            #expect(lint.output.contains("no-such.yaml: no such file"))
            #expect(!lint.output.contains(":1:1"))
            // The YAML it points to is the built-in flow, and lints clean as a file.
            let yaml = onboard(["flows", "abby"])
            #expect(yaml.status == 0 && yaml.output.contains("id: abby"))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("abby-\(UUID().uuidString).yaml").path
            try yaml.output.write(toFile: file, atomically: true, encoding: .utf8)
            let copied = onboard(["lint", file])
            #expect(copied.status == 0 && copied.output.contains("\(file): ok"), "\(copied.output)")
        }

        @Test func theSchemaCommandPrintsTheCommittedSchemas() throws {
            for kind in ["flow", "theme"] {
                let run = onboard(["schema", kind])
                #expect(run.status == 0)
                #expect(run.output == (try String(contentsOfFile: Tmux.packageRoot + "/schemas/\(kind).schema.json", encoding: .utf8)))
            }
        }

        /// Seen items as `onboard coverage --json` lists them.
        func coverage(_ flow: String, state: String) throws -> (seen: Set<String>, total: Int) {
            let run = onboard(["coverage", flow, "--json", "--state-dir", state])
            #expect(run.status == 0, "\(run.output)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            let items = try #require(object["items"] as? [[String: Any]])
            return (Set(items.filter { $0["seen"] as? Bool == true }.compactMap { $0["id"] as? String }), items.count)
        }

        @Test func runsAddUpToWhatQAHasSeenAndAFlowsResetKeepsIt() throws {
            let state = Tmux().stateDirectory
            let happyPath = state + ".happy.keys"
            try "wait:Welcome to OKLah\n<Enter>\nwait:Pick your name\n<Enter>\nwait:Check in\n".write(
                toFile: happyPath, atomically: true, encoding: .utf8)
            let walk = onboard(["run", "oklah", "--headless", "--keys", happyPath, "--state-dir", state])
            #expect(walk.status == 0)
            var (seen, total) = try coverage("oklah", state: state)
            #expect(total == 15)
            #expect(
                seen == [
                    "screen privacy", "screen creating", "result creating sign_in_anonymously success", "screen pick_name",
                    "screen saving_name", "result saving_name choose_name success", "screen home",
                ])
            let text = onboard(["coverage", "oklah", "--state-dir", state, "--unseen"]).output
            #expect(text.contains("OKLah: 7 of 15 (46%) seen"))
            #expect(text.contains("- failed (failed) — from creating: sign_in_anonymously on: error, by fault network"))
            // A second run in the same folder, the network down, after the flow is reset.
            #expect(onboard(["reset", "oklah", "--state-dir", state]).status == 0)
            let keys = state + ".keys"
            try "wait:Welcome to OKLah\n<Enter>\nwait:Something went wrong\n".write(toFile: keys, atomically: true, encoding: .utf8)
            let failing = onboard(["run", "oklah", "--headless", "--keys", keys, "--fault", "network", "--state-dir", state])
            #expect(failing.status == 0, "\(failing.output.suffix(800))")
            (seen, _) = try coverage("oklah", state: state)
            #expect(seen.count == 9)
            #expect(seen.isSuperset(of: ["screen failed", "result creating sign_in_anonymously error", "screen home"]))
            #expect(onboard(["coverage", "oklah", "--clear", "--state-dir", state]).status == 0)
            #expect(try coverage("oklah", state: state).seen.isEmpty)
            // Issue 32: `onboard reset` with no flow resets everything, what QA has seen too.
            #expect(onboard(["run", "oklah", "--headless", "--keys", happyPath, "--state-dir", state]).status == 0)
            #expect(try coverage("oklah", state: state).seen.count == 7)
            #expect(onboard(["reset", "--state-dir", state]).status == 0)
            #expect(try coverage("oklah", state: state).seen.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: state + "/oklah"))
        }

        @Test func theQAConsoleShowsWhatIsNotYetSeenAndHowToReachIt() {
            let tmux = Tmux()
            tmux.start("run oklah")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("C-g")
            tmux.waitFor("Seen / not yet seen")
            tmux.send("Up", "Up", "Up", "Enter")  // above Reset this flow and Close
            let page = tmux.waitFor("Not yet seen")
            #expect(page.contains("1 of 15 (6%) seen: screens 1/9, result branches 0/6"))
            #expect(page.contains("creating (Setting things up...) — from privacy: Start"))
            // Issue 32: the help line offered "PgDn more" and PgDn did nothing.
            #expect(page.contains("PgDn more"))
            tmux.send("PageDown")
            var down = tmux.screen
            for _ in 0..<50 where down == page { usleep(100_000); down = tmux.screen }
            #expect(down != page && !down.contains("1 of 15 (6%) seen"), "PgDn reads on:\n\(down)")
            tmux.send("PageUp")
            tmux.waitFor("1 of 15 (6%) seen")
        }

        /// A flow's scripts, in the order they run: `FLOW.keys`, then `FLOW-*.keys` (each
        /// after `onboard reset FLOW`, in the same state folder).
        static func scripts(of flow: String) -> [String] {
            let extra = ((try? FileManager.default.contentsOfDirectory(atPath: scripts)) ?? [])
                .filter { $0.hasPrefix("\(flow)-") && $0.hasSuffix(".keys") }.sorted()
            return ["\(flow).keys"] + extra
        }

        /// QA's guide's table (docs/qa.md) of what `examples/scripts/` cover is what `onboard coverage`
        /// says after a flow's scripts run in a fresh state folder, as QA would run them.
        @Test(arguments: ["oklah", "babybasics", "abby", "rucktracker", "miga"])
        func theReadmesScriptCoverageIsTrue(flow: String) throws {
            let state = Tmux().stateDirectory
            for (index, script) in Self.scripts(of: flow).enumerated() {
                if index > 0 { #expect(onboard(["reset", flow, "--state-dir", state]).status == 0) }
                let walk = onboard(["run", flow, "--headless", "--keys", "\(Self.scripts)/\(script)", "--state-dir", state])
                #expect(walk.status == 0, "\(script): \(walk.output.suffix(1500))")
            }
            let summary = onboard(["coverage", flow, "--state-dir", state]).output.split(separator: "\n")
            let sections = summary.filter {
                $0.hasPrefix("Screens: ") || $0.hasPrefix("Result branches: ") || $0.hasPrefix("Validation messages: ")
            }
            .map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? "" }
            let total =
                summary.first.map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? "" }?.replacing(" seen", with: "")
                ?? ""
            let names = Self.scripts(of: flow).map { "`\($0)`" }.joined(separator: ", ")
            let row = "| \(names) | \(total) | \(sections.joined(separator: " | ")) |"
            let guide = try String(contentsOfFile: Tmux.packageRoot + "/docs/qa.md", encoding: .utf8)
            #expect(guide.contains(row), "docs/qa.md should have the row \(row)")
        }
    }
}
