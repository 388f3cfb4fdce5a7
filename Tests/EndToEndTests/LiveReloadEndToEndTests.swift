import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// `onboard run --flow FILE --watch` while the file is edited, as a flow author works:
    /// copy, fields and styles change in place, what is typed stays, a broken file is said
    /// over the last good one, a screen that goes away falls back to an earlier one.
    @Suite struct LiveReloadEndToEndTests {
        static let example = Tmux.packageRoot + "/examples/nickname.yaml"

        /// The screen's words in one line, whatever the box and the wrapping did to them.
        func flat(_ screen: String) -> String {
            screen.replacing("│", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }

        /// A copy of the example flow to edit; `edit` rewrites it as an editor saving would.
        func copy() throws -> (path: String, original: String) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString).yaml").path
            let original = try String(contentsOfFile: Self.example, encoding: .utf8)
            try original.write(toFile: path, atomically: true, encoding: .utf8)
            return (path, original)
        }

        @Test func anEditedFlowIsRedrawnInPlaceKeepingWhatIsTyped() throws {
            let (path, original) = try copy()
            let tmux = Tmux()
            tmux.start("run --flow \(path) --watch")
            tmux.waitFor("What should we call you?")
            tmux.type("Ali")
            tmux.waitFor("Ali")
            // New copy, a new placeholder and a new button label.
            let edited = original.replacing("What should we call you?", with: "Pick a nickname, please")
                .replacing("label: Continue", with: "label: Check and go on")
            try edited.write(toFile: path, atomically: true, encoding: .utf8)
            var screen = tmux.waitFor("Pick a nickname, please")
            #expect(screen.contains("Ali"), "what was typed is kept:\n\(screen)")
            #expect(screen.contains("Check and go on"))
            // Mistakes: the first said over the last good version, which keeps running, and
            // how many more (issue 32: a list of them pushed the body out of view).
            try edited.replacing("kind: form", with: "kind: from").replacing("label: Quit", with: "lable: Quit")
                .write(toFile: path, atomically: true, encoding: .utf8)
            screen = flat(tmux.waitFor("loads"))
            #expect(screen.contains("The flow file no longer loads; still showing the last version that did."))
            #expect(screen.contains("unknown screen kind 'from' in screen 'ask'"))
            #expect(screen.contains("more: onboard lint"), "\(screen)")
            #expect(!screen.contains("lable"), "one problem on screen")
            #expect(screen.contains("Pick a nickname, please"))
            tmux.type("ce")
            tmux.waitFor("Alice")
            // Fixed: the panel goes.
            try edited.write(toFile: path, atomically: true, encoding: .utf8)
            screen = tmux.waitFor("Pick a nickname, please")
            for _ in 0..<40 where tmux.screen.contains("loads") { usleep(100_000) }
            #expect(!tmux.screen.contains("loads"))
            #expect(tmux.screen.contains("Alice"))
        }

        @Test func aScreenThatGoesAwayFallsBackToTheOneBeforeIt() throws {
            let (path, original) = try copy()
            let tmux = Tmux()
            tmux.start("run --flow \(path) --watch")
            tmux.waitFor("What should we call you?")
            tmux.type("Alice")
            tmux.send("Enter")
            tmux.waitFor("Welcome, Alice!")
            // The welcome screen removed (and what led to it pointed elsewhere).
            let welcome = try #require(original.range(of: "  - id: welcome"))
            let without = String(original[..<welcome.lowerBound]).replacing("success: welcome", with: "success: offline")
            try without.write(toFile: path, atomically: true, encoding: .utf8)
            let screen = flat(tmux.waitFor("nearest one before it"))
            #expect(screen.contains("What should we call you?"))
            #expect(screen.contains("Screen 'welcome' is no longer in the flow file, so this is 'ask', the nearest one before it."))
            #expect(screen.contains("Alice"))
        }

        @Test func anEditedThemeRestylesTheScreen() throws {
            let theme = FileManager.default.temporaryDirectory.appendingPathComponent("watch-theme-\(UUID().uuidString).yaml").path
            try "name: mine\nroles:\n  title: { fg: red }\n".write(toFile: theme, atomically: true, encoding: .utf8)
            let tmux = Tmux()
            tmux.start("run oklah --theme \(theme) --watch", environment: "TERM=xterm-256color")
            tmux.waitFor("Welcome to OKLah")
            #expect(tmux.styledScreen.contains("\u{1B}[31mWelcome to OKLah"))
            try "name: mine\nroles:\n  title: { fg: magenta }\n".write(toFile: theme, atomically: true, encoding: .utf8)
            var restyled = false
            for _ in 0..<100 where !restyled {
                restyled = tmux.styledScreen.contains("\u{1B}[35mWelcome to OKLah")
                if !restyled { usleep(100_000) }
            }
            #expect(restyled, "\(tmux.styledScreen)")
            // A theme that no longer loads is said; the last good one stays.
            try "name: mine\nroles:\n  title: { fg: mauve }\n".write(toFile: theme, atomically: true, encoding: .utf8)
            let screen = flat(tmux.waitFor("loads"))
            #expect(screen.contains("The theme file no longer loads; still showing the last version that did"))
            #expect(screen.contains("'mauve' is not a colour"))
        }

        @Test func watchingNeedsAFileToWatch() {
            let run = Subprocess.run("/usr/bin/env", [Tmux.binary, "run", "oklah", "--watch"])
            #expect(run.status != 0)
            #expect(run.output.contains("--watch reloads a flow file (--flow FILE) or a theme file (--theme FILE)"))
        }
    }
}
