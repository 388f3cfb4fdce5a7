import Foundation
import Testing

extension EndToEnd {
    /// MIGA in the real binary, on the mock and against onboard-server: the full path with
    /// a kill and resume, a failed hiding check and a relaunch, and the offline path that
    /// finishes in local-only mode.
    @Suite struct MigaEndToEndTests {
        func start(_ tmux: Tmux, _ backend: Backend, _ extra: String = "") {
            tmux.start("run miga \(backend.arguments) \(extra)")
        }

        /// From wherever the twelve steps are, to the setup checklist.
        func walkTheSteps(_ tmux: Tmux, from first: Int = 1) {
            for step in first...12 {
                tmux.waitFor("Step \(step) of 12")
                switch step {
                case 8:
                    tmux.type("8")  // readiness
                    tmux.waitFor("   8")
                    tmux.send("Tab", "Enter")
                case 9:
                    tmux.send("Right", "Space")  // Focus
                    tmux.waitFor("[x] Focus")
                    tmux.send("Tab", "Enter")
                default:
                    tmux.send("Enter")
                }
            }
            tmux.waitFor("Setting up MIGA")
        }

        func chooseInstagram(_ tmux: Tmux) {
            tmux.send("Enter")  // Continue, once the checklist is done
            tmux.waitFor("Choose your apps")
            tmux.send("Space")
            tmux.waitFor("[x] Instagram")
            tmux.send("Tab", "Enter")
        }

        /// At the smallest size, the hiding instructions are read whole with PgDn/PgUp, the
        /// help line saying so, and Enter still leads on.
        @Test func longInstructionsScrollAtFortyByTwelve() throws {
            let mia = Tmux()
            mia.start("run miga")
            mia.waitFor("Begin My Journey")
            mia.send("Enter")
            walkTheSteps(mia, from: 2)
            mia.waitFor("Everything is ready.")
            chooseInstagram(mia)
            mia.waitFor("I've Done It.")
            mia.resize(width: 40, height: 12)
            var screen = mia.waitFor("PgDn more")
            #expect(screen.contains("↓ …") && screen.contains("Enter press"))
            #expect(!screen.contains("I've Done It."), "the last step is out of view")
            mia.send("NPage")
            screen = mia.waitFor("I've Done It.")
            #expect(screen.contains("↑ …") && screen.contains("PgUp up"))
            mia.send("PPage")
            mia.waitFor("1. On your Home Screen")
            mia.send("Enter")  // I've Done It, with the text read
            mia.waitFor("Day 1 of your mindful streak")
        }

        /// Issue 47: at 40x12 a form with no row left for its text reads it in the card on
        /// PgDn. There Esc left the whole form and Space picked a pill unseen; any key but
        /// PgUp/PgDn now only returns to the form.
        @Test func aKeyInTheReadingViewOnlyReturnsToTheForm() throws {
            let mia = Tmux()
            mia.start("run miga", width: 40, height: 12)
            mia.waitFor("Step 1 of 12")
            mia.send("Enter")
            for step in 2...7 {
                mia.waitFor("Step \(step) of 12")
                mia.send("Enter")
            }
            mia.waitFor("Step 8 of 12")
            mia.type("8")
            mia.send("Tab", "Enter")
            var screen = mia.waitFor("[ ] Breathing")
            mia.send("NPage")
            screen = mia.waitFor("mindful moments")
            #expect(!screen.contains("[ ] Breathing"), "reading the text in the card:\n\(screen)")
            mia.send("Space")
            screen = mia.waitFor("[ ] Breathing")
            #expect(!screen.contains("[x]"), "Space picked nothing:\n\(screen)")
            mia.send("NPage")
            mia.waitFor("mindful moments")
            mia.send("Escape")
            screen = mia.waitFor("[ ] Breathing")
            #expect(screen.contains("Step 9 of 12"), "Esc returned to the form, not the step before:\n\(screen)")
        }

        @Test(arguments: Backend.kinds) func theFullPathWithAResumeAndAFailedHidingCheck(backend kind: String) throws {
            let backend = try Backend(kind)
            let mia = Tmux()
            start(mia, backend)
            mia.waitFor("The Intentional Life Starts Now")
            mia.waitFor("Begin My Journey")
            for step in 1...4 {
                mia.waitFor("Step \(step) of 12")
                mia.send("Enter")
            }
            // Killed on step 5: a relaunch comes back to step 5.
            mia.waitFor("Step 5 of 12")
            start(mia, backend, "--simulate hiding=fail")
            mia.waitFor("Your goal")
            walkTheSteps(mia, from: 5)
            let setup = mia.waitFor("Everything is ready.")
            for line in [
                "✓ Local store", "✓ Anonymous sign-in", "✓ Remote config — content sync on, flow 1.0",
                "✓ Content preload — 12 entries cached", "✓ Compatibility check — 6 of 6 apps supported; Face ID",
            ] {
                #expect(setup.contains(line), "setup shows '\(line)'")
            }
            chooseInstagram(mia)
            mia.waitFor("Hide your apps behind Face ID")
            mia.waitFor("2. Tap Require Face ID.")
            mia.send("Enter")  // I've Done It, but the apps are not hidden
            mia.waitFor("Not hidden yet")
            // Quit and relaunch during this phase: back on the instructions, choices kept.
            mia.send("C-c")
            mia.waitFor("[exit")
            start(mia, backend)
            mia.waitFor("Hide your apps behind Face ID")
            mia.waitFor("For each of: Instagram")
            mia.send("Enter")
            let hub = mia.waitFor("Day 1 of your mindful streak")
            #expect(hub.contains("Readiness: 8 of 10"))
            #expect(hub.contains("Interests: Focus"))
            #expect(hub.contains("Behind a mindful pause: Instagram"))
            #expect(!hub.contains("Local-only"))

            // Analytics stay local: the device's own id, never the service's.
            let events = try String(contentsOfFile: mia.stateDirectory + "/miga/events.jsonl", encoding: .utf8)
            for name in ["onboarding_started", "step_goal", "setup_completed", "setup_error", "hub_unlocked"] {
                #expect(events.contains("\"\(name)\""), "event \(name)")
            }
            #expect(!events.contains("\"u_"), "no service user id in analytics")
            // Finished: a relaunch opens the hub.
            mia.send("q")
            mia.waitFor("[exit 0]")
            start(mia, backend)
            mia.waitFor("of your mindful streak")
        }

        @Test(arguments: Backend.kinds) func offlineSetupFinishesInLocalOnlyMode(backend kind: String) throws {
            let backend = try Backend(kind)
            let leo = Tmux()
            start(leo, backend, "--fault network --simulate biometrics=none --simulate unsupported=tiktok")
            walkTheSteps(leo)
            let setup = leo.waitFor("local-only mode: everything works")
            #expect(setup.contains("! Anonymous sign-in — local-only mode"))
            #expect(!setup.contains("✗ MIGA could not reach"), "setup worked: a notice, not an error mark")
            #expect(setup.contains("local: 10 bundled entries cached"))
            #expect(setup.contains("5 of 6 apps supported; no passcode"))
            chooseInstagram(leo)
            let none = leo.waitFor("Another way to add a pause")
            #expect(!none.contains("TikTok"))
            leo.send("Enter")  // Continue to the Hub: no passcode does not block
            let hub = leo.waitFor("Day 1 of your mindful streak")
            #expect(hub.contains("Local-only mode"))
            #expect(leo.session(of: "miga") == nil)
            // Back online later, the hub opens straight away on this device, and (issue 30
            // §5) catches up: a guest made with its key, the service's content cached, no
            // longer local-only.
            leo.send("q")
            leo.waitFor("[exit 0]")
            start(leo, backend)
            leo.waitFor("of your mindful streak")
            for _ in 0..<100 where leo.screen.contains("Local-only") { usleep(50_000) }
            #expect(!leo.screen.contains("Local-only"), "\(leo.screen)")
            leo.send("q")
            leo.waitFor("[exit 0]")
            #expect(leo.userID(of: "miga") != nil, "signed in once the service answered")
            #expect(leo.saved("setup_mode", in: "miga") == "online")
            // A content cache that cannot be read is set aside, said, and rebuilt.
            let cache = leo.stateDirectory + "/miga/content.json"
            try Data("{ not content".utf8).write(to: URL(fileURLWithPath: cache))
            start(leo, backend)
            leo.waitFor("could not be read")
            let rebuilt = try #require(FileManager.default.contents(atPath: cache))
            #expect((try? JSONSerialization.jsonObject(with: rebuilt) as? [Any])?.isEmpty == false, "content.json rebuilt")
        }
    }
}
