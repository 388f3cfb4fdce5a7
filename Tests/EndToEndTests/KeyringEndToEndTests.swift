import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// The keyring backend against a real Secret Service: a private D-Bus session with
    /// gnome-keyring unlocked (`dbus-run-session`, `gnome-keyring-daemon --unlock`), its
    /// keyring file in a throwaway home, read back with `secret-tool` as a person would.
    @Suite struct KeyringEndToEndTests {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-keyring-\(UUID().uuidString)").path
        var state: String { home + "/state" }
        static let scripts = Tmux.packageRoot + "/examples/scripts"

        /// Runs a command on a fresh session bus with this test's keyring unlocked (the
        /// same keyring file each time, so items outlive the bus); output without the
        /// bus's and the keyring's own chatter.
        /// `password` empty: a keyring daemon with no login keyring to store in, which can
        /// only ask through a prompt no terminal shows.
        func withKeyring(_ command: [String], password: String = "onboard") -> (status: Int32, output: String) {
            let setUp = """
                export HOME="$1" XDG_DATA_HOME="$1/data" XDG_RUNTIME_DIR="$1/run" LANG=C.UTF-8
                mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
                printf "$2" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
                shift 2
                exec "$@"
                """
            let run = Subprocess.run("/usr/bin/dbus-run-session", ["--", "bash", "-c", setUp, "keyring", home, password] + command)
            let kept = run.output.split(separator: "\n", omittingEmptySubsequences: false).filter {
                !$0.hasPrefix("dbus-daemon[") && !$0.contains("gcr-prompter") && !$0.contains("cannot open display")
            }
            return (run.status, kept.joined(separator: "\n"))
        }

        func onboard(_ arguments: [String]) -> (status: Int32, output: String) {
            withKeyring([Tmux.binary] + arguments + ["--state-dir", state])
        }

        func lookup(flow: String, kind: String) -> String {
            withKeyring(["secret-tool", "lookup", "application", "onboard", "state_dir", state, "flow", flow, "kind", kind]).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Every file in the state folder as text (the mock's database included: it keeps
        /// tokens only as hashes).
        func stateFiles() throws -> [String: String] {
            var files: [String: String] = [:]
            for path in try FileManager.default.subpathsOfDirectory(atPath: state) {
                guard let data = FileManager.default.contents(atPath: state + "/" + path) else { continue }
                files[path] = String(decoding: data, as: UTF8.self)
            }
            return files
        }

        @Test func tokensAndTheDataKeyLiveInTheKeyringAndLeaveWithLogOutAndReset() throws {
            // auto finds the Secret Service and says so once.
            let first = onboard(["run", "oklah", "--headless", "--keys", "\(Self.scripts)/oklah.keys"])
            #expect(first.status == 0, "\(first.output.suffix(1500))")
            #expect(first.output.contains("onboard: Onboard keeps this folder's tokens and encryption key in the system keyring (items labelled onboard/<flow>/\(state))."))
            let items = withKeyring(["secret-tool", "search", "--all", "application", "onboard"]).output
            #expect(items.contains("label = onboard/oklah/\(state)"))
            #expect(items.contains("label = onboard/data-key/\(state)"))

            let session = try #require(try JSONSerialization.jsonObject(with: Data(lookup(flow: "oklah", kind: "session").utf8)) as? [String: Any])
            let refresh = try #require(session["refreshToken"] as? String)
            let access = try #require(session["accessToken"] as? String)
            #expect(refresh.hasPrefix("rt_"))
            let files = try stateFiles()
            #expect(!files.keys.contains { $0.hasPrefix("secrets") }, "no fallback file where a keyring answers")
            for (name, text) in files {
                #expect(!text.contains(refresh) && !text.contains(access), "\(name) holds a token")
            }

            // A relaunch resumes at Home, signed in from the keyring.
            let resume = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(UUID().uuidString).keys").path
            try "wait:Check in\n".write(toFile: resume, atomically: true, encoding: .utf8)
            let relaunch = onboard(["run", "oklah", "--headless", "--keys", resume, "--wait-timeout", "10s"])
            #expect(relaunch.status == 0, "\(relaunch.output.suffix(1500))")
            #expect(!relaunch.output.contains("keeps this folder's tokens"), "said once")

            // ABBY: the name and phone are nowhere in clear; log-out takes its tokens away.
            let abby = onboard(["run", "abby", "--headless", "--keys", "\(Self.scripts)/abby.keys"])
            #expect(abby.status == 0, "\(abby.output.suffix(1500))")
            #expect(lookup(flow: "abby", kind: "session").contains("rt_"))
            for (name, text) in try stateFiles() where !name.contains("mock.sqlite") {
                #expect(!text.contains("López") && !text.contains("5550109999"), "\(name) holds ABBY's name or phone")
            }
            let logOut = FileManager.default.temporaryDirectory.appendingPathComponent("logout-\(UUID().uuidString).keys").path
            try "wait:You're all set\n<Enter>\nwait:Welcome to ABBY\n".write(toFile: logOut, atomically: true, encoding: .utf8)
            let out = onboard(["run", "abby", "--headless", "--keys", logOut, "--wait-timeout", "10s"])
            #expect(out.status == 0, "\(out.output.suffix(1500))")
            #expect(lookup(flow: "abby", kind: "session").isEmpty, "log-out removes the tokens")

            // A damaged session file on the keyring backend: said in plain words, set aside,
            // a fresh start.
            try Data("not json \u{1}".utf8).write(to: URL(fileURLWithPath: state + "/oklah/session.json"))
            let welcome = FileManager.default.temporaryDirectory.appendingPathComponent("welcome-\(UUID().uuidString).keys").path
            try "wait:Welcome to OKLah\n".write(toFile: welcome, atomically: true, encoding: .utf8)
            let damaged = onboard(["run", "oklah", "--headless", "--keys", welcome, "--wait-timeout", "10s"])
            #expect(damaged.status == 0, "\(damaged.output.suffix(1500))")
            #expect(damaged.output.contains("could not be read"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/oklah").contains { $0.hasPrefix("session.json.corrupt-") })

            // Reset removes every item of the folder.
            let reset = onboard(["reset"])
            #expect(reset.status == 0, "\(reset.output)")
            #expect(!withKeyring(["secret-tool", "search", "--all", "application", "onboard"]).output.contains("label ="))
        }

        /// A keyring that cannot store (here: no login keyring, and a prompt no terminal
        /// can show): auto says so and keeps the secrets in the file instead.
        @Test func aKeyringThatCannotStoreSendsAutoToTheFileWithItsReason() throws {
            let run = withKeyring([Tmux.binary, "run", "oklah", "--headless", "--keys", "\(Self.scripts)/oklah.keys", "--state-dir", state], password: "")
            #expect(run.status == 0, "\(run.output.suffix(1500))")
            #expect(run.output.contains("onboard: Onboard keeps this folder's tokens and encryption key in a private file (\(state)/secrets): The keyring did not store the secret:"))
            #expect(FileManager.default.fileExists(atPath: state + "/secrets/oklah.session"))
            let explicit = withKeyring([Tmux.binary, "run", "oklah", "--headless", "--keys", "\(Self.scripts)/oklah.keys", "--state-dir", home + "/other", "--secret-store", "keyring"], password: "")
            #expect(explicit.status != 0, "keyring asked for and unusable stops the run")
            #expect(explicit.output.contains("--secret-store keyring: The keyring did not store the secret:"))
        }
    }
}
