import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Accessible mode: the same flows as plain line prompts, asked for with --accessible or
    /// used by themselves when the terminal cannot draw or input is not a terminal.
    @Suite struct AccessibleModeEndToEndTests {
        @Test func aWholeFlowThroughStandardInputAndOutputWithWrongAnswersAskedAgain() throws {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-e2e-\(UUID().uuidString)").path
            let answers = [
                "", "1",  // the pre-filled server URL, Continue
                "9", "one", "1",  // not a choice, twice; then Create Account
                "Jo", "not an email", "jo@example.org", "long enough", "1",  // a bad email is asked again
                "Ray", "2026-13-45", "2026-10-01", "1",  // a date that does not exist is asked again
            ]
            let run = Subprocess.run(
                Tmux.binary, ["run", "babybasics", "--state-dir", state], input: answers.joined(separator: "\n") + "\n")
            #expect(run.status == 0)
            let out = run.output
            #expect(out.contains("standard input and output are not a terminal"))
            #expect(out.contains("== Baby Basics ==\n"))
            #expect(out.contains("Server URL [mock://local]: \n"))
            #expect(out.contains("  1) Create Account\n  2) I Have an Invite\n  3) Already have an account? Log in\n  4) Back\n"))
            #expect(
                out.contains(
                    "Enter a number between 1 and 4: 9\nEnter a number between 1 and 4.\nEnter a number between 1 and 4: one\nEnter a number between 1 and 4.\n"
                ))
            #expect(
                out.contains(
                    "Email: not an email\nEmail: Please enter a valid email address.\nEmail (refused: not an email): jo@example.org\n"))
            #expect(out.contains("Password: ••••••\n"), "a password is never echoed")
            #expect(!out.contains("long enough"))
            #expect(out.contains("Enter a date as YYYY-MM-DD (Enter keeps it): 2026-13-45\nDate of birth"))
            #expect(out.contains("== Dashboard ==\n  - Ray (born 2026-10-01)"))
            #expect(out.contains("End of input; your progress is saved."))

            // The next run resumes where this one ended.
            let again = Subprocess.run(Tmux.binary, ["run", "babybasics", "--state-dir", state], input: "")
            #expect(again.output.contains("== Dashboard =="))
            #expect(!again.output.contains("Server URL"))
        }

        /// Issue 30 §5: `--accessible` printed the hub's streak day and banner from the last
        /// full-screen run ("Day 401" after a 400-day clock offset). A printed line cannot
        /// be redrawn, so the hub's own load is waited for first.
        @Test func theHubInLinesShowsTodaysStreakNotTheLastRunsOne() throws {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-e2e-\(UUID().uuidString)").path
            let walk = Subprocess.run(
                Tmux.binary,
                ["run", "miga", "--headless", "--keys", Tmux.packageRoot + "/reliability/scripts/miga.keys", "--state-dir", state])
            #expect(walk.status == 0, "\(walk.output.suffix(800))")
            let later = FileManager.default.temporaryDirectory.appendingPathComponent("day-\(UUID().uuidString).keys").path
            try "wait:Day 2 of your mindful streak\n".write(toFile: later, atomically: true, encoding: .utf8)
            let future = Subprocess.run(
                Tmux.binary, ["run", "miga", "--headless", "--keys", later, "--clock-offset", "1d", "--state-dir", state])
            #expect(future.status == 0, "\(future.output.suffix(800))")
            let lines = Subprocess.run(Tmux.binary, ["run", "miga", "--accessible", "--state-dir", state], input: "")
            #expect(lines.output.contains("== Day 1 of your mindful streak =="), "\(lines.output)")
            #expect(!lines.output.contains("Day 2"))
        }

        @Test func aTerminalThatCannotDrawGetsLinePromptsInstead() {
            let tmux = Tmux()
            tmux.start("run oklah", environment: "TERM=dumb")
            let dumb = tmux.waitFor("Enter 1 (or press Enter)")
            #expect(unwrapped(dumb).contains("the terminal type 'dumb' cannot move the cursor"))
            #expect(dumb.contains("== Welcome to OKLah =="))
            #expect(dumb.contains("  • Your privacy comes first"), "bullets are bullets; numbers are for the choices")
            #expect(!dumb.contains("1. Your privacy"))
            tmux.send("Enter")
            tmux.waitFor("Enter a number between 1 and 3:")
            tmux.type("2")
            tmux.send("Enter")
            tmux.waitFor("== Hi, ")
            // Ctrl-C ends it at once (the pane goes with it); the progress is kept.
            tmux.send("C-c")
            for _ in 0..<100 where tmux.onboardPID != nil { usleep(50_000) }
            #expect(tmux.onboardPID == nil)

            tmux.start("run oklah", environment: "TERM=no-such-terminal")
            let unknown = tmux.waitFor("== Hi, ")
            #expect(unwrapped(unknown).contains("the terminal type 'no-such-terminal' is unknown"))
        }

        /// The pane's lines joined again where the terminal wrapped them.
        private func unwrapped(_ screen: String) -> String {
            screen.replacingOccurrences(of: "\n", with: "")
        }

        @Test func accessibleAskedForInAGoodTerminalUsesLinesAndHidesPasswords() {
            let tmux = Tmux()
            tmux.start("run babybasics --accessible")
            tmux.waitFor("Server URL [mock://local]:")
            tmux.send("Enter")
            tmux.waitFor("(or press Enter):")
            tmux.send("Enter")
            tmux.waitFor("Enter a number between 1 and 4:")
            tmux.type("1")
            tmux.send("Enter")
            for value in ["Jo", "jo@example.org"] {
                tmux.type(value)
                tmux.send("Enter")
            }
            tmux.waitFor("Password:")
            tmux.type("long enough")
            tmux.send("Enter")
            let screen = tmux.waitFor("Enter a number between 1 and 3:")
            #expect(!screen.contains("long enough"), "the password is not echoed")
            #expect(!screen.contains("╭"), "no screens drawn")
            tmux.type("1")
            tmux.send("Enter")
            tmux.waitFor("== Add your baby ==")
        }
    }
}
