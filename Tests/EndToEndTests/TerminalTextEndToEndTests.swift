import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Text as strangers' terminals deliver it: pastes, and locales that are not UTF-8.
    @Suite struct TerminalTextEndToEndTests {
        /// Issue 31: text a terminal would run as commands — a window title, a screen
        /// clear, a clipboard write, a bare CR, a right-to-left override — from a file (a
        /// flow file here; names and content from the service go through the same view) is
        /// drawn as visible signs in full screen, in plain lines and in a `--cast` file.
        /// A theme's file name is the user's folder's, not ours: `onboard themes` lists it
        /// with its control characters as visible signs, never as a window title.
        @Test func aThemeFileNameIsListedInert() throws {
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-config-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: config + "/onboard/themes", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: config) }
            try "name: x\n".write(toFile: config + "/onboard/themes/evil\u{1B}]0;PWNED\u{07}.yaml", atomically: true, encoding: .utf8)
            let run = Subprocess.run("/usr/bin/env", ["XDG_CONFIG_HOME=" + config, Tmux.binary, "themes"])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("evil"), "\(run.output)")
            #expect(!run.output.contains("\u{1B}") && !run.output.contains("\u{07}"), "\(run.output.debugDescription)")
        }

        /// A flow file's problems quote its words (a screen's id, a key): `lint`, `graph`
        /// and `run --flow` print them with control characters as visible signs, so a file
        /// someone sent cannot colour, retitle or rewrite the terminal that checks it.
        @Test func aFlowFilesProblemsArePrintedInert() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-evil-\(UUID().uuidString).yaml").path
            defer { unlink(file) }
            // YAML's own escapes: raw control characters are refused by the reader (whose
            // message quotes the line, inert too).
            try "id: x\nscreens:\n  - id: \"a\\e]0;PWNED\\ab\"\n    kind: bogus\n".write(toFile: file, atomically: true, encoding: .utf8)
            for arguments in [["lint", file], ["graph", "--flow", file], ["run", "--flow", file]] {
                let run = Subprocess.run(Tmux.binary, arguments)
                #expect(run.status != 0, "\(arguments): \(run.output)")
                #expect(run.output.contains("unknown screen kind 'bogus'"), "\(arguments): \(run.output)")
                #expect(!run.output.contains("\u{1B}") && !run.output.contains("\u{07}"), "\(arguments): \(run.output.debugDescription)")
            }
        }

        @Test func receivedTextIsDrawnNeverExecuted() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-hostile-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let flow = folder + "/hostile.yaml", cast = folder + "/run.cast"
            try #"""
            id: hostile
            title: Hostile
            summary: text that would be commands if a terminal ran it
            entry:
              first_launch: start
            screens:
              - id: start
                kind: info
                title: "Pat\e]0;PWNED\a"
                body: "Shared by Mal\rRED \e[2J \e]52;c;ZXZpbA==\a \u202Etxt.exe"
                actions:
                  - label: Quit
                    quit: true
            """#.write(toFile: flow, atomically: true, encoding: .utf8)
            func inert(_ text: String) -> Bool {
                !text.unicodeScalars.contains { [0x1B, 0x07, 0x0D, 0x9B, 0x202E].contains($0.value) }
            }

            let lines = Subprocess.run(Tmux.binary, ["run", "--flow", flow, "--accessible", "--state-dir", folder + "/lines"], input: "")
            #expect(lines.output.contains("== Pat␛]0;PWNED␇ =="), "\(lines.output)")
            #expect(lines.output.contains("Shared by Mal␍RED"))
            #expect(inert(lines.output), "no control reached the terminal: \(lines.output.debugDescription)")

            let tmux = Tmux()
            tmux.start("run --flow \(flow) --cast \(cast)")
            let screen = tmux.waitFor("Pat␛]0;PWNED␇")
            #expect(screen.contains("Shared by Mal␍RED"), "the CR shown, the border intact:\n\(screen)")
            #expect(!tmux.pane("#{pane_title}").contains("PWNED"), "the window title is not changed")
            tmux.send("Enter")
            tmux.waitFor("[exit 0]")
            let recorded = try String(contentsOfFile: cast, encoding: .utf8)
            #expect(recorded.contains("PWNED"))
            #expect(
                !recorded.contains("\\u001b]") && !recorded.contains("\\u001b[2J\\u001b]"), "no OSC sequence of the content in the cast")
            #expect(!recorded.contains("\\u202e") && !recorded.contains("\u{202E}"))
        }

        @Test func aHugePasteGoesIntoTheFocusedFieldCutToItsLimitAndPressesNothing() throws {
            let tmux = Tmux()
            tmux.start("run babybasics")
            tmux.waitFor("Server URL")
            // 1 MB with newlines and control characters: as one bracketed paste, none of it
            // is a key (a newline would otherwise press Continue).
            let line = String(repeating: "x", count: 1023) + "\n"
            let pasted = "\u{7}" + String(repeating: line, count: 1024)
            tmux.paste(pasted)
            let screen = tmux.waitFor("Only 2048 characters fit here; the rest was left out.")
            #expect(screen.contains("Server URL"), "still on the first screen")
            #expect(!screen.contains("Welcome to Baby Basics"))
            // The field holds its limit and keeps working: the progress is saved as typed.
            tmux.send("Tab")
            for _ in 0..<50 where (tmux.saved("server_url", in: "babybasics") ?? "").count < 2048 { usleep(50_000) }
            let saved = tmux.saved("server_url", in: "babybasics") ?? ""
            #expect(saved.count == 2048)
            #expect(saved.hasPrefix("mock://localx"))
            #expect(!saved.contains("\n") && !saved.contains("\u{7}"))
        }

        /// Fixing a typo in the middle of a URL with readline's keys, and Home and End as
        /// tmux, screen and PuTTY send them under TERM=xterm-256color (not in its terminfo
        /// entry): never Esc (Back) plus text.
        /// Issue 32: with a 25 ms Esc wait, Home arriving with a 30 ms gap after its ESC
        /// (ordinary over SSH) went Back and typed `[1~` into the field before (as it still
        /// does with `ESCDELAY=25`, which is honoured). A lone Esc still goes Back.
        @Test func aSequenceWhoseEscArrivesALittleEarlyIsStillOneKey() {
            let tmux = Tmux()
            tmux.start("run babybasics", environment: "TERM=xterm-256color")
            tmux.waitFor("Server URL")
            tmux.send("Enter")
            tmux.waitFor("Welcome to Baby Basics")
            tmux.sendBytes("1b")
            usleep(30_000)
            tmux.sendBytes("5b 31 7e")  // the rest of Home
            usleep(400_000)
            var screen = tmux.screen
            #expect(screen.contains("Welcome to Baby Basics") && !screen.contains("[1~"), "\(screen)")
            tmux.send("Escape")
            screen = tmux.waitFor("Server URL")
            #expect(!screen.contains("[1~"))
        }

        /// Issue 47: a terminal's colour reply typed into a field opened the QA console (its
        /// BEL is Ctrl-G) and typed `11;rgb:…`; tmux's version reply and mouse reports were
        /// typed too. Each is dropped whole; what the person types around it stays.
        @Test func aTerminalsRepliesAndMouseReportsAreNeverTypedIntoAField() {
            let tmux = Tmux()
            tmux.start("run babybasics", environment: "TERM=xterm-256color")
            tmux.waitFor("Server URL")
            tmux.send("C-u")
            tmux.type("mock://")
            // OSC 11 with BEL, then with ST; DCS (tmux's version); SGR and X10 mouse.
            tmux.sendBytes("1b 5d 31 31 3b 72 67 62 3a 30 30 30 30 2f 30 30 30 30 2f 30 30 30 30 07")
            tmux.type("lo")
            tmux.sendBytes("1b 5d 31 31 3b 72 67 62 3a 66 66 66 66 2f 66 66 66 66 2f 66 66 66 66 1b 5c")
            tmux.sendBytes("1b 50 3e 7c 74 6d 75 78 20 33 2e 33 1b 5c")
            tmux.type("ca")
            tmux.sendBytes("1b 5b 3c 30 3b 31 30 3b 35 4d")
            tmux.sendBytes("1b 5b 4d 20 21 21")
            tmux.type("l")
            let screen = tmux.waitFor("mock://local")
            #expect(!screen.contains("rgb") && !screen.contains("tmux") && !screen.contains("!!") && !screen.contains("10;5"), "\(screen)")
            #expect(!screen.contains("QA console") && screen.contains("Which Baby Basics server"), "\(screen)")
        }

        @Test func aURLIsEditedInTheMiddleWithTheKeysEveryTerminalSends() {
            let tmux = Tmux()
            tmux.start("run babybasics", environment: "TERM=xterm-256color")
            tmux.waitFor("Server URL")
            tmux.send("C-u")
            tmux.type("mock://locl")
            tmux.send("Left")
            tmux.type("a")
            tmux.sendBytes("1b 5b 31 7e")  // Home
            tmux.type("X")
            tmux.sendBytes("1b 5b 34 7e")  // End
            tmux.type("Y")
            tmux.sendBytes("1b 5b 31 3b 39 58")  // a key nobody maps: dropped whole
            var screen = tmux.waitFor("Xmock://localY")
            #expect(!screen.contains("[1~") && !screen.contains("[4~") && !screen.contains("[1;9X"))
            #expect(screen.contains("Which Baby Basics server"), "Home and End did not go back")

            // Alt-B puts the cursor before the last word, where the terminal cursor shows.
            tmux.send("M-b")
            usleep(200_000)
            let line = tmux.screen.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("Xmock://localY") }
            let row = line.map { String(tmux.screen.split(separator: "\n", omittingEmptySubsequences: false)[$0]) } ?? ""
            let column = row.distance(from: row.startIndex, to: row.range(of: "localY")?.lowerBound ?? row.startIndex)
            #expect(tmux.pane("#{cursor_x},#{cursor_y}") == "\(column),\(line ?? -1)")

            // Ctrl-K cuts to the end, Ctrl-Y puts it back; Ctrl-A and Delete, End and Backspace.
            tmux.send("C-k")
            tmux.waitFor("Xmock://  ")
            tmux.send("C-y", "C-a", "DC", "End", "BSpace")
            screen = tmux.waitFor("mock://local ")
            #expect(!screen.contains("Xmock") && !screen.contains("localY"))
            tmux.send("Tab", "Enter")
            tmux.waitFor("Welcome to Baby Basics")
        }

        @Test func aLocaleThatIsNotUTF8GetsASCIIBordersAndNoGarbage() {
            let tmux = Tmux()
            tmux.start("run oklah", environment: "LANG=C LC_ALL=C")
            let screen = tmux.waitFor("Welcome to OKLah")
            #expect(screen.contains("+---"), "ASCII borders")
            #expect(!screen.contains("╭") && !screen.contains("�"))
            let allASCII = screen.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(allASCII, "nothing but ASCII on a C-locale terminal")
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
        }

        @Test func resizingWhileTypingKeepsTheTextAndRedrawsAtOnce() {
            let tmux = Tmux()
            tmux.start("run babybasics")
            tmux.waitFor("Server URL")
            tmux.send("Tab")
            tmux.send("Enter")
            tmux.waitFor("Create Account")
            tmux.send("Enter")
            tmux.waitFor("Create your account")
            tmux.type("Jo")
            tmux.resize(width: 60, height: 20)
            tmux.type("an")
            tmux.resize(width: 40, height: 12)
            tmux.type("na")
            let small = tmux.waitFor("Joanna")
            #expect(small.split(separator: "\n").allSatisfy { $0.count <= 40 })
            tmux.resize(width: 20, height: 6)
            tmux.waitFor("too small")
            tmux.type("!")
            tmux.resize(width: 80, height: 24)
            let big = tmux.waitFor("Joanna!")
            #expect(big.contains("Create your account") && !big.contains("too small"))
        }
    }
}
