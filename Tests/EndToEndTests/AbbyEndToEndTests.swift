import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// ABBY in the real binary, on the mock and against onboard-server: phone and code,
    /// the whole profile, a kill and resume, logout, a returning user, social sign-in with
    /// Cancel, and the privacy promise checked on disk.
    @Suite struct AbbyEndToEndTests {
        let phone = "5550109999"
        let fullName = "Ana López"

        func start(_ tmux: Tmux, _ backend: Backend) {
            tmux.start("run abby \(backend.arguments)")
        }

        /// Consent, then the phone number, then the code from the outbox.
        func signInWithPhone(_ tmux: Tmux, _ backend: Backend, consent: Bool = true) {
            tmux.waitFor("Welcome to ABBY")
            tmux.waitFor("Step 1 of 7")
            if !consent { tmux.send("Right") }
            tmux.send("Enter")
            tmux.waitFor("Create your account")
            tmux.send("Enter")  // Use Phone Number
            tmux.waitFor("Your phone number")
            tmux.send("Tab")
            tmux.type(phone)
            tmux.waitFor("(555) 010-9999")
            tmux.send("Tab")
            tmux.send("Enter")
            tmux.waitFor("Enter your code")
            tmux.waitFor("Resend Code (")
        }

        /// Issue 30: the folder's own embedded mock kept the full name, phone and birth date
        /// in clear in `mock.sqlite-wal`. Sealed now with the folder's key: `onboard outbox`
        /// still reads the code, and no file of the folder holds a value in clear.
        @Test func theFoldersOwnMockKeepsNoNameOrPhoneOrBirthDateInClear() throws {
            let ana = Tmux()
            ana.start("run abby")
            signInWithPhone(ana, try Backend("mock"))
            let outbox = Subprocess.run(Tmux.binary, ["outbox", "--last", "1", "--state-dir", ana.stateDirectory]).output
            #expect(outbox.contains("+1" + phone), "the outbox opens the sealed destination:\n\(outbox)")
            ana.type(try #require(outbox.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines))
            ana.waitFor("Your name")
            ana.type("Ana López")
            ana.send("Tab")
            ana.type("Ana 77")
            ana.send("Tab", "Enter")
            ana.waitFor("Your age")
            ana.type("19900514")
            ana.send("Tab")
            ana.type("25 40")
            ana.send("Tab", "Enter")
            ana.waitFor("About you")
            for file in try FileManager.default.subpathsOfDirectory(atPath: ana.stateDirectory) {
                guard let data = FileManager.default.contents(atPath: ana.stateDirectory + "/" + file) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                let inClear = ["López", phone, "1990-05-14"].filter { text.contains($0) }
                #expect(inClear.isEmpty, "\(file) holds these in clear")
            }
            #expect(FileManager.default.fileExists(atPath: ana.stateDirectory + "/mock.sqlite"), "the folder's own mock was used")
        }

        /// Issue 32: consent withdrawn on the consent screen deletes what was recorded under it.
        @Test func withdrawingConsentDeletesTheEventsOnDisk() {
            let bo = Tmux()
            bo.start("run abby")
            bo.waitFor("Welcome to ABBY")
            bo.send("Enter")  // Agree and Continue
            bo.waitFor("Create your account")
            let events = bo.stateDirectory + "/abby/events.jsonl"
            #expect(FileManager.default.fileExists(atPath: events), "agreed: steps are recorded")
            bo.send("Escape")
            bo.waitFor("Welcome to ABBY")
            bo.send("Right", "Enter")  // Continue Without Analytics
            bo.waitFor("Create your account")
            #expect(!FileManager.default.fileExists(atPath: events), "withdrawn: the events are gone")
        }

        /// A number the service refuses: the message under the field, and what is typed
        /// next lands in the number, not in the Country picker.
        @Test func aRefusedNumberKeepsTheCursorInTheNumber() {
            let tmux = Tmux()
            tmux.start("run abby")
            tmux.waitFor("Welcome to ABBY")
            tmux.send("Enter")
            tmux.waitFor("Create your account")
            tmux.send("Enter")
            tmux.waitFor("Phone number")
            tmux.send("Tab")
            tmux.type("5550")
            tmux.send("Tab", "Enter")
            tmux.waitFor("Please enter a valid phone number")
            tmux.type("77")
            tmux.waitFor("(555) 077")
        }

        @Test(arguments: Backend.kinds) func phoneSignUpTheWholeProfileResumeLogoutAndReturn(backend kind: String) throws {
            let backend = try Backend(kind)
            let ana = Tmux()
            start(ana, backend)
            signInWithPhone(ana, backend)
            let code = try #require(backend.lastSMSCode())
            ana.type(code == "000000" ? "111111" : "000000")
            ana.waitFor("That code is wrong or has expired")
            ana.type(code)  // six digits submit themselves
            ana.waitFor("Your name")
            ana.waitFor("Step 3 of 7")

            ana.type(fullName)
            ana.send("Tab")
            ana.type("Ana_99")
            ana.waitFor("Choose a display name (2-30 characters)")
            ana.send("BSpace", "BSpace", "BSpace")
            ana.type(" 99")
            ana.send("Tab")
            ana.send("Enter")
            ana.waitFor("Your age")

            ana.type("20100101")
            ana.waitFor("Age 16")
            ana.send("Tab", "Tab", "Enter")
            ana.waitFor("You must be 18+ to use ABBY")
            ana.type("19900514")  // the refused field has the focus
            let born = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: .current, year: 1990, month: 5, day: 14).date!
            ana.waitFor("Age \(Calendar(identifier: .gregorian).dateComponents([.year], from: born, to: Date()).year!)")
            ana.send("Tab")
            ana.type("16")  // no age from 18 to 99 starts with 16: the range stays in bounds
            ana.waitFor("18 to 99")
            #expect(!ana.screen.contains("16 to"))
            ana.send("BSpace", "BSpace")
            ana.type("25 40")
            ana.waitFor("25 to 40")
            ana.send("Tab", "Enter")
            ana.waitFor("About you")

            // Killed halfway through a screen: it comes back where it was, with the values.
            ana.type("w")
            ana.waitFor("Woman")
            ana.send("Tab")
            start(ana, backend)
            ana.waitFor("About you")
            // The killed window saves "Woman" as it closes; on a loaded machine that comes
            // after this one read the folder, and this one follows it, which is read first.
            ana.waitToRead("Woman")
            ana.send("Tab")
            ana.send("Space")
            ana.send("Tab", "Enter")
            ana.waitFor("Your background")
            ana.send("Escape")
            ana.waitFor("About you")
            ana.waitFor("[x] Women")
            ana.send("Tab", "Tab", "Enter")
            ana.waitFor("Your background")
            ana.type("a")
            ana.send("Tab", "Tab", "Enter")
            ana.waitFor("What you want")
            ana.waitFor("Step 7 of 7")
            ana.type("s")
            ana.send("Tab")
            ana.type("n")
            ana.send("Tab", "Enter")
            ana.waitFor("You're all set, Ana 99")

            // Full name and phone number: sealed in the progress file and in the embedded
            // mock's database (its -wal too), never in analytics, the session or any log.
            let folder = ana.stateDirectory + "/abby"
            let events = try String(contentsOfFile: folder + "/events.jsonl", encoding: .utf8)
            #expect(events.contains("onboarding_completed"))
            #expect(ana.saved("phone_e164", in: "abby") == "+1" + phone)
            for file in try FileManager.default.subpathsOfDirectory(atPath: ana.stateDirectory) {
                let path = ana.stateDirectory + "/" + file
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                for personal in ["López", phone, "1990-05-14"] {
                    #expect(!text.contains(personal), "\(file) holds \(personal) in clear")
                }
            }
            if let server = backend.server {
                #expect(
                    !server.output.contains("López") && !server.output.contains(phone),
                    "the server's log holds the name or the phone number")
            }

            // Logout forgets this device's data and returns to the start.
            ana.send("Enter")  // Log Out
            ana.waitFor("Welcome to ABBY")
            #expect(ana.session(of: "abby") == nil)
            #expect(!FileManager.default.fileExists(atPath: folder + "/events.jsonl"))
            #expect(ana.saved("full_name", in: "abby") == nil)

            // The same number again: it signs in to the same account, straight to the end.
            signInWithPhone(ana, backend)
            ana.type(try #require(backend.lastSMSCode()))
            ana.waitFor("You're all set, Ana 99")
        }

        /// Issue 30: the progress lost beside a kept session (a data key gone, a damaged
        /// file) showed "You're all set" and wrote the profile complete, though the service
        /// held only the names. The service is asked where the person stands; issue 47: the
        /// flow picks up at the first step it holds no answer for (the age), not at the names
        /// again.
        @Test(arguments: ["mock", "server"]) func lostProgressWithAKeptSessionAsksTheService(backend kind: String) throws {
            let backend = try Backend(kind)
            let ana = Tmux()
            start(ana, backend)
            signInWithPhone(ana, backend)
            ana.type(try #require(backend.lastSMSCode()))
            ana.waitFor("Your name")
            ana.type(fullName)
            ana.send("Tab")
            ana.type("Ana 77")
            ana.send("Tab")
            ana.send("Enter")
            ana.waitFor("Your age")
            ana.send("C-c")
            ana.waitFor("[exit 0]")
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: ana.stateDirectory + "/abby/progress.json"))

            start(ana, backend)
            let screen = ana.waitFor("Your age")
            #expect(!screen.contains("You're all set") && screen.contains("Step 4 of 7"), "\(screen)")
            ana.send("C-c")
            ana.waitFor("[exit 0]")
            #expect(ana.session(of: "abby")?["onboardingComplete"] as? Bool != true)
        }

        /// Issue 30 §5: a kill lost the field being edited, even after seconds idle. A pause
        /// in typing saves the draft with the same atomic write.
        @Test func aKillAfterAPauseInTypingKeepsWhatWasTyped() throws {
            let backend = try Backend("mock")
            let ana = Tmux()
            start(ana, backend)
            signInWithPhone(ana, backend)
            ana.type(try #require(backend.lastSMSCode()))
            ana.waitFor("Your name")
            ana.type("Ana ZZ")
            ana.waitFor("Ana ZZ")
            // A person stops typing for a moment: the draft is saved then, however slow the machine.
            #expect(ana.waitUntilSaved("full_name", in: "abby", is: "Ana ZZ"), "a pause in typing saves the draft")
            kill(try #require(ana.onboardPID), SIGKILL)
            ana.waitFor("[exit 137]")
            start(ana, backend)
            let screen = ana.waitFor("Your name")
            #expect(screen.contains("Ana ZZ"), "the draft typed before the kill:\n\(screen)")
        }

        /// Issue 34: social sign-in approved in a browser. On a server, the code screen
        /// (address, code, QR code) waits while the person approves on the server's page,
        /// then goes on by itself; a denial returns to the method choice with no error. The
        /// embedded mock approves in its simulated consent screen instead.
        @Test(arguments: Backend.kinds) func socialSignInCancelAndAllowWithoutAnalytics(backend kind: String) throws {
            let backend = try Backend(kind)
            let bo = Tmux()
            start(bo, backend)
            bo.waitFor("Welcome to ABBY")
            bo.send("Right", "Enter")  // Continue Without Analytics
            bo.waitFor("Create your account")
            bo.send("Right", "Right", "Enter")  // Continue with Google
            bo.waitFor("Sign in with Google")
            // Cancel: past the account field and Allow on the mock's consent screen; the
            // code screen's only button otherwise.
            if kind == "mock" { bo.send("Tab", "Tab", "Enter") } else { bo.send("Enter") }
            let method = bo.waitFor("Create your account")
            #expect(!method.contains("✗"), "Cancel returns with no error state")
            bo.send("Right", "Enter")  // Continue with Apple
            let provider = bo.waitFor("Sign in with Apple")
            if kind == "mock" {
                bo.type("bo@icloud.com")
                bo.send("Tab", "Enter")  // Allow
            } else {
                #expect(provider.contains("The code expires in"), "\(provider)")
                #expect(provider.contains("▀▀▀▀▀▀▀"), "the QR code beside the text at 80x24:\n\(provider)")
                let code = try #require(provider.firstMatch(of: /[B-Z]{4}-[B-Z]{4}/).map { String($0.output) }, "\(provider)")
                #expect(backend.approveOnTheDevicePage(userCode: code, account: "bo@icloud.com", allow: false))
                let denied = bo.waitToRead("Create your account")
                #expect(!denied.contains("✗"), "a denial returns to the method choice with no error state:\n\(denied)")
                bo.send("Right", "Enter")  // Continue with Apple, again
                let again = bo.waitFor("Sign in with Apple")
                let second = try #require(again.firstMatch(of: /[B-Z]{4}-[B-Z]{4}/).map { String($0.output) }, "\(again)")
                #expect(second != code, "a new code for a new sign-in")
                #expect(backend.approveOnTheDevicePage(userCode: second, account: "bo@icloud.com"))
            }
            bo.waitFor("Your name")
            #expect(bo.session(of: "abby") != nil)
            #expect(!FileManager.default.fileExists(atPath: bo.stateDirectory + "/abby/events.jsonl"), "no tracking without consent")
        }
    }
}
