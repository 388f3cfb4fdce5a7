import Foundation
import Testing

extension EndToEnd {
    /// However onboard ends — Ctrl-C, SIGTERM, SIGHUP (an SSH connection dropped), a crash,
    /// or a Ctrl-Z and `fg` on the way — the shell gets its terminal back exactly as it was
    /// (`stty -g` the same, cursor shown, alternate screen left), and the next launch resumes
    /// where the user was.
    @Suite struct TerminalRestoreEndToEndTests {
        static let endings = ["ctrl-c", "sigterm", "sighup", "crash", "suspend-and-fg"]

        @Test(arguments: endings) func theTerminalIsRestoredAndTheNextLaunchResumes(ending: String) throws {
            let tmux = Tmux()
            try FileManager.default.createDirectory(atPath: tmux.stateDirectory, withIntermediateDirectories: true)
            let before = tmux.stateDirectory + "/stty-before"
            let after = tmux.stateDirectory + "/stty-after"
            tmux.startShell()
            tmux.waitFor("$")
            tmux.type("stty -g > \(before); \(tmux.commandLine("run oklah")); echo \"[exit $?]\"; stty -g > \(after)")
            tmux.send("Enter")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Enter")
            tmux.waitFor("Pick your name")

            let pid = try #require(tmux.onboardPID)
            let expectedExit: String
            switch ending {
            case "ctrl-c":
                tmux.send("C-c")
                expectedExit = "[exit 0]"
            case "sigterm":
                kill(pid, SIGTERM)
                expectedExit = "[exit 143]"
            case "sighup":
                kill(pid, SIGHUP)
                expectedExit = "[exit 129]"
            case "crash":
                kill(pid, SIGSEGV)
                expectedExit = "[exit 139]"
            default:
                // Stopped, the shell runs the rest of the line (exit 128 + SIGTSTP) with the
                // terminal already back; `fg` returns to the flow.
                tmux.send("C-z")
                tmux.waitFor("Stopped")
                expectedExit = "[exit 147]"
            }
            let shell = tmux.waitFor(expectedExit)
            #expect(!shell.contains("Pick your name"), "the flow's screen is gone")
            // The shell's own line ran after onboard: wait for its stty to finish.
            waitForFile(after)
            let saved = try String(contentsOfFile: before, encoding: .utf8)
            let restored = try String(contentsOfFile: after, encoding: .utf8)
            #expect(!saved.isEmpty)
            #expect(restored == saved, "stty settings after \(ending) match those before")
            #expect(tmux.pane("#{alternate_on}") == "0", "the alternate screen was left")
            #expect(tmux.pane("#{cursor_flag}") == "1", "the cursor is visible")

            if ending == "suspend-and-fg" {
                tmux.type("fg")
                tmux.send("Enter")
                tmux.waitFor("Pick your name")
                tmux.send("C-c")
                tmux.waitFor("$ ")
                tmux.type("stty -g > \(after)-fg")
                tmux.send("Enter")
                waitForFile(after + "-fg")
                #expect(try String(contentsOfFile: after + "-fg", encoding: .utf8) == saved, "stty settings after fg and quitting match")
            }

            // The next launch resumes on the name screen.
            tmux.type("clear; \(tmux.commandLine("run oklah")); echo \"[exit $?]\"")
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")
        }

        /// Waits (a few seconds at most) until the shell has written the file.
        private func waitForFile(_ path: String) {
            for _ in 0..<100 {
                if let data = FileManager.default.contents(atPath: path), data.last == UInt8(ascii: "\n") { return }
                usleep(50_000)
            }
        }

        /// Ctrl-L repaints the whole screen, as in readline, vi and less: text another
        /// program wrote over it (a `wall` message, a background job) is gone, and what
        /// was typed is still there. serve-web asks for it when a page reconnects.
        @Test func ctrlLRepaintsAScreenDisturbedFromOutside() throws {
            let tmux = Tmux()
            tmux.start("run rucktracker")
            tmux.waitFor("Your rucks")
            tmux.send("l")
            tmux.waitFor("Log a ruck")
            tmux.type("7.5")
            tmux.waitFor("7.5")
            let terminal = tmux.pane("#{pane_tty}")
            let handle = try #require(FileHandle(forWritingAtPath: terminal), "the pane's terminal \(terminal)")
            handle.write(Data("\u{1B}[5;5HBROADCAST FROM ANOTHER PROGRAM\u{1B}[20;1HSECOND LINE".utf8))
            try handle.close()
            tmux.waitFor("BROADCAST FROM ANOTHER PROGRAM")
            tmux.send("C-l")
            #expect(EndToEnd.waitUntil({ !tmux.screen.contains("BROADCAST") && !tmux.screen.contains("SECOND LINE") }), "\(tmux.screen)")
            #expect(tmux.screen.contains("Log a ruck") && tmux.screen.contains("7.5"), "\(tmux.screen)")
        }
    }
}
