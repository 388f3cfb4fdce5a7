import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Issue 48: `onboard gallery` writes a page for every built-in flow that holds every
    /// screen `onboard graph` lists, opens in headless Chromium with no console error and
    /// filters by text; its keys reach the screen they name; a flow file's change shows.
    @Suite struct GalleryEndToEndTests {
        func onboard(_ arguments: [String]) -> (status: Int32, output: String) {
            Subprocess.run("/usr/bin/env", ["LANG=C.UTF-8", "ONBOARD_SECRET_STORE=file", Tmux.binary] + arguments)
        }

        /// The screen ids `onboard graph` lists (its dot nodes), launch aside.
        func graphScreens(_ flow: String) -> [String] {
            onboard(["graph", flow]).output.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: #"^  "([a-z0-9_]+)" \[label"#, options: .regularExpression) else { return nil }
                return String(line[range].dropFirst(3).prefix { $0 != "\"" })
            }
        }

        @Test(arguments: ["oklah", "babybasics", "abby", "rucktracker", "miga"]) func aPageForEachBuiltInFlow(flow: String) throws {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-gallery-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let run = onboard(["gallery", flow, "--out", out])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("states drawn"), "\(run.output)")
            let page = try String(contentsOfFile: out + "/\(flow).html", encoding: .utf8)
            let screens = graphScreens(flow)
            #expect(screens.count > 5)
            for screen in screens {
                #expect(page.contains("<code>screen \(screen)</code>"), "\(flow): no place for \(screen)")
            }
            let visit = Subprocess.run(
                "/usr/bin/env", ["python3", ServeWebEndToEndTests.script, out + "/\(flow).html", "gallery", "screen \(screens[0])"])
            let line = try #require(visit.output.split(separator: "\n").last { $0.hasPrefix("{") }, "\(visit.output.suffix(1000))")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((result["console_errors"] as? [String])?.isEmpty == true, "\(result["console_errors"] ?? "")")
            let sections = result["sections"] as? Int ?? 0
            #expect(sections > screens.count, "states beyond the screens: \(sections)")
            let filtered = result["shown_after_filter"] as? Int ?? 0
            #expect(filtered >= 1 && filtered < sections, "the filter narrows the page: \(filtered) of \(sections)")
        }

        @Test func theKeysShownReachTheScreenTheyName() throws {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-gallery-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            _ = onboard(["gallery", "rucktracker", "--out", out])
            let page = try String(contentsOfFile: out + "/rucktracker.html", encoding: .utf8)
            // The pro offer's keys, as the page gives them (HTML-escaped).
            let section = try #require(page.components(separatedBy: "<code>screen pro_offer</code>").dropFirst().first)
            let keys = try #require(
                section.components(separatedBy: "Keys to the screen: <code>").dropFirst().first?.components(separatedBy: "</code>").first
            )
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            let script = out + "/keys.txt"
            try "wait:Your rucks\n\(keys)\nwait:RuckTracker Pro\n".write(toFile: script, atomically: true, encoding: .utf8)
            let run = onboard(["run", "rucktracker", "--headless", "--keys", script, "--state-dir", out + "/state"])
            #expect(run.output.contains("RuckTracker Pro") && !run.output.contains("never appeared"), "\(run.output.suffix(1500))")
        }

        @Test func aScreenChangedInAFlowFileChangesInThePage() throws {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-gallery-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let file = out + "/nickname.yaml"
            let original = try String(contentsOfFile: Tmux.packageRoot + "/examples/nickname.yaml", encoding: .utf8)
            try original.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(onboard(["gallery", "--flow", file, "--out", out]).status == 0)
            let id = try #require(original.components(separatedBy: "\nid: ").dropFirst().first?.prefix { $0 != "\n" })
            let title = try #require(original.components(separatedBy: "    title: ").dropFirst().first?.prefix { $0 != "\n" })
            let before = try String(contentsOfFile: out + "/\(id).html", encoding: .utf8)
            #expect(before.contains(String(title)))
            try original.replacingOccurrences(of: "    title: \(title)\n", with: "    title: A Title Changed For Review\n")
                .write(toFile: file, atomically: true, encoding: .utf8)
            #expect(onboard(["gallery", "--flow", file, "--out", out]).status == 0)
            let after = try String(contentsOfFile: out + "/\(id).html", encoding: .utf8)
            #expect(after.contains("A Title Changed For Review") && !after.contains(">\(title)<"), "the page follows the file")
        }
    }
}
