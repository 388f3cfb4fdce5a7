import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// The real binary, in tmux, walked by keys as a person would. One serialized suite:
    /// ncurses programs and tmux servers are cheaper one at a time on a small machine.
    @Suite struct OKLahEndToEndTests {
        /// First launch to Home; returns the chosen name.
        @discardableResult
        func onboard(_ tmux: Tmux, extra: String = "") -> String {
            tmux.start("run oklah \(extra)")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Enter")
            let picking = tmux.waitFor("Pick your name")
            let names = tmux.offeredNames
            #expect(names.count == 3)
            #expect(names.allSatisfy { picking.contains($0) }, "the offered names are on screen:\n\(picking)")
            tmux.send("Down")
            tmux.send("Enter")
            let chosen = names.count > 1 ? names[1] : "?"
            tmux.waitFor("Hi, \(chosen)")
            return chosen
        }

        @Test func firstLaunchStartPickANameHomeAndRelaunchGoesHome() throws {
            let tmux = Tmux()
            let name = onboard(tmux)
            let home = tmux.screen
            #expect(home.contains("Check in"))
            #expect(!home.contains("Welcome to OKLah"))
            tmux.send("Enter")
            tmux.waitFor("not part of")
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")

            let attributes = try FileManager.default.attributesOfItem(atPath: tmux.stateDirectory + "/oklah/session.json")
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let events = try String(contentsOfFile: tmux.stateDirectory + "/oklah/events.jsonl", encoding: .utf8)
            #expect(events.contains("\"event\":\"onboarding_start\""))
            #expect(events.contains("\"event\":\"onboarding_complete\""))
            #expect(!events.contains("at_"))
            #expect(!events.contains("\"user_id\":\"local-"), "the placeholder user id was backfilled")
            #expect(events.contains("\"anonymous_id\":\"local-"), "the run's placeholder stays on every event, for the funnel")

            tmux.start("run oklah")
            let relaunched = tmux.waitFor("Hi, \(name)")
            #expect(!relaunched.contains("Welcome to OKLah"))
        }

        /// Quits, writes garbage over the progress file (the session stays), relaunches.
        func relaunchWithItsProgressDamaged(_ tmux: Tmux) throws {
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: tmux.stateDirectory + "/oklah/progress.json"))
            tmux.start("run oklah")
        }

        /// Issue 30 §3: progress lost beside a kept session (a damaged file, a data key
        /// gone) landed on "Hi, friend" with no name chosen. The service says: the name
        /// chosen, or the same three names offered again.
        @Test func lostProgressWithAKeptSessionAsksTheServiceForTheName() throws {
            let tmux = Tmux()
            let name = onboard(tmux)
            try relaunchWithItsProgressDamaged(tmux)
            let home = tmux.waitFor("Hi, \(name)")
            #expect(!home.contains("friend"))

            let fresh = Tmux()
            fresh.start("run oklah")
            fresh.waitFor("Welcome to OKLah")
            fresh.send("Enter")
            fresh.waitFor("Pick your name")
            let offered = fresh.offeredNames
            try relaunchWithItsProgressDamaged(fresh)
            let again = fresh.waitFor("Pick your name")
            #expect(!again.contains("Hi,"))
            #expect(offered.count == 3 && offered.allSatisfy { again.contains($0) }, "the same names:\n\(again)")
        }

        @Test func aNetworkFailureShowsTheErrorAndTryAgainRecovers() {
            let tmux = Tmux()
            tmux.start("run oklah --fault fail-first=1")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Enter")
            let error = tmux.waitFor("Something went wrong")
            #expect(error.contains("Try Again"))
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
        }

        @Test func aServiceThatStaysDownKeepsShowingTheRetryableError() {
            let tmux = Tmux()
            tmux.start("run oklah --fault network")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Escape")
            tmux.send("Enter")
            tmux.waitFor("Something went wrong")
            tmux.send("Enter")
            usleep(300_000)
            let screen = tmux.waitFor("Something went wrong")
            #expect(!screen.contains("Pick your name"))
        }

        @Test func anExpiredAccessTokenIsRenewedSilentlyForTheSameUser() throws {
            let tmux = Tmux()
            let name = onboard(tmux)
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")
            let before = try #require(tmux.sessionFile)
            tmux.start("run oklah --clock-offset 25h")
            let screen = tmux.waitFor("Hi, \(name)")
            #expect(!screen.contains("Something went wrong"))
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")
            let after = try #require(tmux.sessionFile)
            #expect(after["userID"] as? String == before["userID"] as? String)
            #expect(after["accessToken"] as? String != before["accessToken"] as? String)
        }

        /// `--clock-offset -1h`, as the README writes it, is a value, not an unknown flag.
        @Test func aClockOffsetIntoThePastIsAcceptedWithOrWithoutEquals() {
            for form in ["--clock-offset -1h", "--clock-offset=-1h"] {
                let tmux = Tmux()
                tmux.start("run oklah \(form)")
                let screen = tmux.waitFor("Welcome to OKLah")
                #expect(!screen.contains("Missing value"), "\(form):\n\(screen)")
                tmux.send("C-c")
                tmux.waitFor("[exit 0]")
            }
        }

        @Test func aRejectedSessionShowsThePrivacyScreenWithNoError() {
            let tmux = Tmux()
            onboard(tmux)
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")
            tmux.start("run oklah --clock-offset 25h --fault reauth-fail")
            let screen = tmux.waitFor("Welcome to OKLah")
            #expect(!screen.contains("Something went wrong"))
            #expect(!screen.contains("Hi,"))
        }

        @Test func killedOnTheNameScreenTheNextLaunchReturnsThereWithTheSameNames() throws {
            let tmux = Tmux()
            tmux.start("run oklah")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Enter")
            let before = tmux.waitFor("Pick your name")
            let pid = try #require(tmux.onboardPID)
            kill(pid, SIGKILL)
            tmux.waitFor("[exit 137]")
            tmux.start("run oklah")
            let after = tmux.waitFor("Pick your name")
            let names = tmux.offeredNames
            #expect(names.count == 3)
            #expect(names.allSatisfy { before.contains($0) && after.contains($0) })
        }

        @Test func resizingRedrawsAtEverySizeAndSaysWhenTooSmall() {
            let tmux = Tmux()
            tmux.start("run oklah")
            tmux.waitFor("Welcome to OKLah")
            tmux.resize(width: 40, height: 12)
            let small = tmux.waitFor("> Start <")
            #expect(small.split(separator: "\n").allSatisfy { $0.count <= 40 })
            tmux.resize(width: 20, height: 6)
            tmux.waitFor("too small")
            tmux.resize(width: 80, height: 24)
            let big = tmux.waitFor("Your privacy comes first")
            #expect(!big.contains("too small"))
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
        }

        @Test func aCorruptSessionFileIsReportedAndSetAside() throws {
            let tmux = Tmux()
            try FileManager.default.createDirectory(atPath: tmux.stateDirectory + "/oklah", withIntermediateDirectories: true)
            try Data("not json at all \u{1}".utf8).write(to: URL(fileURLWithPath: tmux.stateDirectory + "/oklah/session.json"))
            tmux.start("run oklah")
            let screen = tmux.waitFor("Welcome to OKLah")
            #expect(screen.contains("could not be read"))
            let files = try FileManager.default.contentsOfDirectory(atPath: tmux.stateDirectory + "/oklah")
            #expect(files.contains { $0.hasPrefix("session.json.corrupt-") })
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
        }

        @Test func sigtermRestoresTheTerminalAndKeepsProgress() throws {
            let tmux = Tmux()
            tmux.start("run oklah")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
            let pid = try #require(tmux.onboardPID)
            kill(pid, SIGTERM)
            let after = tmux.waitFor("[exit 143]")
            #expect(!after.contains("Pick your name"), "the alternate screen was left")
            tmux.start("run oklah")
            tmux.waitFor("Pick your name")
        }

        /// The call re-issued on return carries the first one's idempotency key, so the
        /// service holds one guest, not two.
        @Test func suspendedDuringCreationItRetriesSilentlyOnReturn() {
            let tmux = Tmux()
            // A shell with job control, so Ctrl-Z and fg work as they do for a person.
            tmux.startShell()
            tmux.waitFor("$")
            tmux.type(tmux.commandLine("run oklah --fault slow=1500"))
            tmux.send("Enter")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Enter")
            tmux.waitFor("Setting things up")
            tmux.send("C-z")
            tmux.waitFor("Stopped")
            usleep(500_000)
            tmux.type("fg")
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
            usleep(2_500_000)  // the re-issued call, slow too, has finished by now
            let database = tmux.stateDirectory + "/mock.sqlite"
            let count = Subprocess.run(
                "/usr/bin/env",
                [
                    "python3", "-c",
                    "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM users').fetchone()[0])", database,
                ])
            #expect(count.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "guests in the service: \(count.output)")
        }

        @Test func aFlowFileThatIsNotBuiltInRunsFromTheTable() {
            let tmux = Tmux()
            tmux.start("run --flow examples/nickname.yaml")
            tmux.waitFor("What should we call you?")
            tmux.type("Al")
            tmux.send("Tab")
            tmux.send("Enter")
            tmux.waitFor("A nickname needs at least 3 characters.")
            // A failed submit puts focus back on the field at fault.
            tmux.type("ice")
            tmux.send("Tab")
            tmux.send("Enter")
            tmux.waitFor("Welcome, Alice!")
        }

        @Test func aThemeThatCannotBeUsedIsSaidOnScreenAndTheDefaultShown() {
            let tmux = Tmux()
            tmux.start("run oklah --theme /no/such/theme.yaml")
            let screen = tmux.waitFor("Welcome to OKLah")
            #expect(screen.contains("The theme could not be used"))
        }

        @Test func thePickerListsTheBuiltInFlows() {
            let tmux = Tmux()
            tmux.start("")
            let picker = tmux.waitFor("Choose an onboarding flow")
            #expect(picker.contains("OKLah"))
            // Issue 47: at 80x24 every summary was cut ("… no name, email or phone n…").
            for flow in ["OKLah", "Baby Basics", "ABBY", "RuckTracker", "MIGA"] {
                let row = picker.split(separator: "\n").first { $0.contains("\(flow) — ") } ?? ""
                #expect(!row.isEmpty && !row.contains("…"), "\(flow) whole at 80x24:\n\(picker)")
            }
            tmux.send("Enter")
            tmux.waitFor("Welcome to OKLah")
        }
    }
}
