import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Issue 34: ABBY's social sign-in approved in a real browser — headless Chromium
    /// (Debian's chromium and chromium-driver) opening the QR code's address — while the
    /// terminal (tmux) waits and then goes on by itself; a denial, a wrong code; the
    /// browser opened on Enter at a desktop, and never for an SSH session.
    @Suite struct SocialSignInEndToEndTests {
        static let chromiumWalk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Browser/chromium_walk.py"
        ).path

        /// What the person saw in Chromium: each page's heading, error and code field,
        /// and the console's errors.
        struct Walk: Decodable {
            struct Page: Decodable {
                var url: String
                var heading: String?
                var error: String?
                var code: String?
                /// The confirmation's first paragraph: which terminal, when, from where.
                var says: String?
            }
            var pages: [Page]
            var consoleErrors: [String]
            enum CodingKeys: String, CodingKey { case pages, consoleErrors = "console_errors" }
        }

        func chromium(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Walk {
            let run = Subprocess.run("/usr/bin/env", ["python3", Self.chromiumWalk] + arguments)
            let line = try #require(
                run.output.split(separator: "\n").last { $0.hasPrefix("{") },
                "chromium and chromium-driver (.ci/run installs them): \(run.output.suffix(1500))", sourceLocation: sourceLocation)
            return try JSONDecoder().decode(Walk.self, from: Data(line.utf8))
        }

        /// ABBY up to the code screen for `button` (Right presses from Use Phone Number):
        /// the screen, and the code it shows.
        func codeScreen(_ tmux: Tmux, rights: Int = 2) throws -> (screen: String, code: String) {
            tmux.waitFor("Welcome to ABBY")
            tmux.send("Enter")  // Agree and Continue
            tmux.waitFor("Create your account")
            for _ in 0..<rights { tmux.send("Right") }
            tmux.send("Enter")
            let screen = tmux.waitFor("The code expires in")
            let code = try #require(screen.firstMatch(of: /[B-Z]{4}-[B-Z]{4}/).map { String($0.output) }, "\(screen)")
            return (screen, code)
        }

        @Test func approvedInChromiumTheTerminalGoesOnByItself() throws {
            let backend = try Backend("server")
            let server = try #require(backend.server)
            let ana = Tmux()
            ana.start("run abby \(backend.arguments)")
            let (screen, code) = try codeScreen(ana)
            #expect(screen.contains("Sign in with Google") && screen.contains("▀▀▀▀▀▀▀"), "the code and its QR code:\n\(screen)")
            // The address the QR code holds, as a phone's camera reads it.
            let walk = try chromium([(server.base + "/D/" + code).uppercased(), "allow", "ana@example.org"])
            // The code comes in the link: nothing to type, but a page that says what Continue
            // would sign in (issue 46: a link alone approved nothing; it must say so).
            let asked = try #require(walk.pages.first?.says, "\(walk.pages)")
            #expect(
                asked.contains(code) && asked.contains("to be signed in as you with Google") && asked.contains("from 127.0.0.1"), "\(asked)"
            )
            #expect(walk.pages.map(\.heading) == ["Sign in to a terminal with Google?", "Development sign-in", "You're signed in"])
            #expect(walk.pages.last?.url == server.base + "/device/signed-in", "no code or state left in the address bar")
            #expect(walk.consoleErrors.isEmpty, "\(walk.consoleErrors)")
            ana.waitFor("Your name")
            #expect(ana.session(of: "abby") != nil)
        }

        /// Google played by an OpenID provider built on Authlib (PyPI), with a server that
        /// has no `--dev` at all: its providers file, its own sign-in page in Chromium.
        @Test func approvedAtAThirdPartyProviderInChromium() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-authlib-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("ContractTests/ThirdParty/authlib_provider.py").path
            let log = folder + "/authlib.log"
            let provider = try #require(
                Subprocess.spawn("/usr/bin/env", ["python3", script, "onboard-google", "g-secret", "loopback"], output: log))
            defer { kill(provider, SIGTERM) }
            var issuer: String?
            _ = EndToEnd.waitUntil(
                {
                    issuer = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").firstMatch(
                        of: /listening on (http:\/\/127\.0\.0\.1:\d+)/
                    )
                    .map { String($0.1) }
                    return issuer != nil
                }, seconds: 30)
            let google = try #require(
                issuer, "Authlib (pip install authlib flask): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            try "g-secret\n".write(toFile: folder + "/google.secret", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder + "/google.secret")
            try """
            google:
              issuer: \(google)
              client_id: onboard-google
              client_secret_file: \(folder)/google.secret
            """.write(toFile: folder + "/providers.yaml", atomically: true, encoding: .utf8)
            let server = try ServerProcess(arguments: ["--identity-providers", folder + "/providers.yaml"])
            defer { kill(server.pid, SIGKILL) }
            let gina = Tmux()
            gina.start("run abby --service \(server.base)")
            let (_, code) = try codeScreen(gina)
            let walk = try chromium([(server.base + "/D/" + code).uppercased(), "allow", ""])
            #expect(
                walk.pages.map(\.heading) == ["Sign in to a terminal with Google?", "Sign in to Onboard as Gina?", "You're signed in"],
                "\(walk.pages)")
            #expect(walk.consoleErrors.isEmpty, "\(walk.consoleErrors)")
            gina.waitFor("Your name")
            #expect(gina.session(of: "abby") != nil)
        }

        @Test func deniedInChromiumReturnsToTheMethodChoiceWithNoError() throws {
            let backend = try Backend("server")
            let server = try #require(backend.server)
            let bo = Tmux()
            bo.start("run abby \(backend.arguments)")
            let (_, code) = try codeScreen(bo, rights: 1)  // Continue with Apple
            let walk = try chromium([server.base + "/D/" + code, "deny"])
            #expect(walk.pages.last?.heading == "Sign-in not approved")
            let method = bo.waitFor("Create your account")
            #expect(!method.contains("✗"), "no error state:\n\(method)")
            #expect(bo.session(of: "abby") == nil)
        }

        @Test func aWrongCodeTypedInChromiumIsSaidPlainly() throws {
            let backend = try Backend("server")
            let server = try #require(backend.server)
            let walk = try chromium([server.base + "/device", "type", "BBBB-BBBB"])
            #expect(walk.pages.last?.heading == "Sign in to your terminal")
            #expect(walk.pages.last?.error == "That code is not right, or it has expired. Check the code in your terminal.")
        }

        /// Issue 46 §1 (ASVS 3.5.1, 10.7.1; RFC 8628 §5.4, remote phishing): a page on
        /// another site auto-posted an attacker's code to `/device`, and a visitor signed in
        /// at the provider ended at "You're signed in" while the attacker's terminal got the
        /// visitor's session. Now the post shows a confirmation and nothing more, and a
        /// Continue posted from another site — even with a confirmation the attacker made
        /// for itself — is refused; the visitor's own approval still works.
        @Test func aPageOnAnotherSiteCannotSignItsVisitorInOnAnAttackersTerminal() throws {
            let backend = try Backend("server")
            let server = try #require(backend.server)
            let attacker = Tmux()
            attacker.start("run abby \(backend.arguments)")
            let (_, code) = try codeScreen(attacker)
            func page(_ action: String, _ fields: [(String, String)]) -> String {
                let inputs = fields.map { "<input type=hidden name='\($0.0)' value='\($0.1)'>" }.joined()
                let html = "<form method=post action='\(server.base)\(action)'>\(inputs)</form><script>document.forms[0].submit()</script>"
                return "data:text/html," + (html.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            }
            let posted = try chromium([page("/device", [("user_code", code)]), "visit"])
            #expect(posted.pages.last?.heading == "Sign in to a terminal with Google?", "\(posted.pages)")
            #expect(!posted.pages.contains { $0.heading == "You're signed in" || $0.heading == "Development sign-in" })

            // The attacker's own confirmation (its own cookie), posted from its page.
            let folder = NSTemporaryDirectory() + "onboard-attacker-\(UUID().uuidString.prefix(8))"
            let own = Subprocess.run(
                "/usr/bin/env", ["curl", "-s", "-c", folder + ".jar", "-d", "user_code=\(code)", server.base + "/device"]
            ).output
            let fields = own.matches(of: /<input type="hidden" name="([^"]+)" value="([^"]*)">/).map { (String($0.1), String($0.2)) }
            #expect(fields.map(\.0) == ["user_code", "confirmation"], "\(own)")
            let forged = try chromium([page("/device/confirm", fields), "visit"])
            #expect(forged.pages.last?.error?.contains("can only be confirmed on this server's own page") == true, "\(forged.pages)")
            // In the security log with the browser's address and the sign-in's reference (ASVS 16.2.1).
            let logged = server.output.split(separator: "\n").filter { $0.contains("event=social_token_refused") }
            #expect(
                logged.contains { $0.contains("address=127.0.0.1") && $0.contains("account=device:") && !$0.contains(code) }, "\(logged)")
            #expect(attacker.screen.contains("The code expires in"), "the attacker's terminal still waits:\n\(attacker.screen)")
            #expect(attacker.session(of: "abby") == nil)

            // The person whose terminal it is approves it, on the server's own pages.
            let walk = try chromium([(server.base + "/D/" + code).uppercased(), "allow", "ana@example.org"])
            #expect(walk.pages.last?.heading == "You're signed in", "\(walk.pages)")
            attacker.waitFor("Your name")
        }

        /// Issue 45 §1: Esc, Cancel or a relaunch on the code screen left the code
        /// approvable: the page said "it goes on by itself" and no terminal signed in. A
        /// code left is withdrawn, and the page says so as it would of any dead code.
        @Test func aCodeTheTerminalLeftCanNoLongerBeApprovedInChromium() throws {
            let backend = try Backend("server")
            let server = try #require(backend.server)
            let dead = "That code is not right, or it has expired. Check the code in your terminal."
            let cy = Tmux()
            cy.start("run abby \(backend.arguments)")
            let (_, escaped) = try codeScreen(cy)
            cy.send("Escape")
            cy.waitFor("Create your account")
            cy.send("Right")
            cy.send("Right")
            cy.send("Enter")  // Continue with Google again: a new code
            let again = cy.waitFor("The code expires in")
            let cancelled = try #require(again.firstMatch(of: /[B-Z]{4}-[B-Z]{4}/).map { String($0.output) }, "\(again)")
            #expect(cancelled != escaped)
            cy.send("Enter")  // Cancel, the one button
            cy.waitFor("Create your account")
            for code in [escaped, cancelled] {
                #expect(
                    EndToEnd.waitUntil(
                        { (try? chromium([server.base + "/device", "type", code]))?.pages.last?.error == dead }, seconds: 20))
            }

            // Killed on the code screen: the next launch withdraws what it left.
            cy.send("Right")
            cy.send("Right")
            cy.send("Enter")
            let shown = cy.waitFor("The code expires in")
            let killed = try #require(shown.firstMatch(of: /[B-Z]{4}-[B-Z]{4}/).map { String($0.output) }, "\(shown)")
            kill(try #require(cy.onboardPID), SIGKILL)
            cy.waitFor("[exit 137]")
            cy.start("run abby \(backend.arguments)")
            cy.waitFor("Create your account")
            #expect(
                EndToEnd.waitUntil({ (try? chromium([server.base + "/device", "type", killed]))?.pages.last?.error == dead }, seconds: 20))
            #expect(cy.session(of: "abby") == nil)
        }

        /// A stand-in for the desktop's opener (xdg-open), which writes down what it was
        /// asked to open.
        func fakeOpener() throws -> (folder: String, opened: String) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-opener-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let opened = folder + "/opened.txt"
            try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(opened)\n".write(toFile: folder + "/xdg-open", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/xdg-open")
            return (folder, opened)
        }

        @Test func atADesktopEnterOpensTheBrowser() throws {
            let backend = try Backend("server")
            let server = try #require(backend.server)
            let opener = try fakeOpener()
            let ana = Tmux()
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            ana.start(
                "run abby \(backend.arguments)",
                environment: "DISPLAY=:99 SSH_CONNECTION= SSH_CLIENT= SSH_TTY= PATH=\(opener.folder):\(path)")
            let (screen, code) = try codeScreen(ana)
            #expect(screen.contains("Press Enter to open it in") && screen.contains("Open Browser"), "\(screen)")
            ana.send("Enter")
            #expect(
                EndToEnd.waitUntil { ((try? String(contentsOfFile: opener.opened, encoding: .utf8)) ?? "").contains(code) },
                "the browser was asked to open the sign-in")
            let opened = (try? String(contentsOfFile: opener.opened, encoding: .utf8)) ?? ""
            #expect(opened == (server.base + "/D/" + code).uppercased() + "\n", "one address, as one argument")
        }

        @Test func overServeSSHTheCodeAndQRAreDrawnAndNoBrowserIsOpened() throws {
            let backend = try Backend("server")
            let server = try #require(backend.server)
            let opener = try fakeOpener()
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            // The server's machine has a desktop and a browser: its sessions' people do not.
            let demo = try ServeSSHEndToEndTests.DemoServer(
                ["--flow", "abby", "--service", server.base], environment: ["DISPLAY=:99", "PATH=\(opener.folder):\(path)"])
            let tmux = Tmux()
            tmux.startShell()
            tmux.waitFor("$")
            tmux.type(demo.sshCommand("-t"))
            tmux.send("Enter")
            let (screen, code) = try codeScreen(tmux)
            #expect(screen.contains("▀▀▀▀▀▀▀") && screen.contains(code), "the QR code and the code, over SSH:\n\(screen)")
            #expect(!screen.contains("Open Browser") && !screen.contains("Press Enter to open"), "\(screen)")
            // Approved on a phone (here, its pages posted as a browser does): the session
            // over SSH goes on by itself.
            #expect(backend.approveOnTheDevicePage(userCode: code, account: "ana@example.org"))
            tmux.waitFor("Your name")
            #expect(!FileManager.default.fileExists(atPath: opener.opened), "no browser opened on the server's desktop")
        }
    }
}
