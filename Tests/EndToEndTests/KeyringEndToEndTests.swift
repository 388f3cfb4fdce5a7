import Foundation
import Testing
import TestSupport

/// A private D-Bus session bus with gnome-keyring unlocked on it, its keyring file in a
/// throwaway home, for as long as the value lives: one daemon for a whole test, so what one
/// step stores is what the next reads (a daemon per step could be stopped before it wrote
/// its file).
final class PrivateKeyring {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-keyring-\(UUID().uuidString)").path
    private var bus: pid_t = 0
    private(set) var environment: [String] = []

    /// `password` empty: a keyring daemon with no login keyring to store in, which can only
    /// ask through a prompt no terminal shows.
    init(password: String = "onboard") throws {
        try FileManager.default.createDirectory(
            atPath: home + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let started = Subprocess.run("/usr/bin/dbus-daemon", ["--session", "--fork", "--print-address=1", "--print-pid=1"])
        let lines = started.output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("dbus-daemon[") }
        guard lines.count >= 2, let pid = pid_t(lines[1]) else {
            throw KeyringError(description: "dbus-daemon did not start: \(started.output)")
        }
        bus = pid
        environment = [
            "HOME=\(home)", "XDG_DATA_HOME=\(home)/data", "XDG_RUNTIME_DIR=\(home)/run", "LANG=C.UTF-8",
            "DBUS_SESSION_BUS_ADDRESS=\(lines[0])",
        ]
        _ = run(["sh", "-c", "printf '\(password)' | gnome-keyring-daemon --unlock --components=secrets"])
        // Ready once it owns the Secret Service's name (else a client would start a second,
        // locked daemon by D-Bus activation).
        for _ in 0..<100 {
            let owner = run([
                "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets",
            ])
            if owner.output.contains("boolean true") { return }
            usleep(50_000)
        }
        throw KeyringError(description: "gnome-keyring-daemon did not take the Secret Service's name")
    }

    deinit {
        // The keyring daemon leaves with its bus.
        if bus > 0 { kill(bus, SIGTERM) }
    }

    struct KeyringError: Error, CustomStringConvertible { var description: String }

    /// Runs a command on this bus; output without the keyring's prompter chatter.
    func run(_ command: [String]) -> (status: Int32, output: String) {
        let run = Subprocess.run("/usr/bin/env", environment + command)
        let kept = run.output.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.contains("gcr-prompter") && !$0.contains("cannot open display")
        }
        return (run.status, kept.joined(separator: "\n"))
    }

    func lookup(state: String, flow: String, kind: String) -> String {
        run(["secret-tool", "lookup", "application", "onboard", "state_dir", state, "flow", flow, "kind", kind]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var items: String { run(["secret-tool", "search", "--all", "application", "onboard"]).output }
}

extension EndToEnd {
    /// The keyring backend against a real Secret Service (`PrivateKeyring`), read back with
    /// `secret-tool` as a person would.
    @Suite struct KeyringEndToEndTests {
        let keyring: PrivateKeyring
        var state: String { keyring.home + "/state" }
        static let scripts = Tmux.packageRoot + "/examples/scripts"

        init() throws {
            keyring = try PrivateKeyring()
        }

        func onboard(_ arguments: [String]) -> (status: Int32, output: String) {
            keyring.run([Tmux.binary] + arguments + ["--state-dir", state])
        }

        func lookup(flow: String, kind: String) -> String {
            keyring.lookup(state: state, flow: flow, kind: kind)
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
            #expect(
                first.output.contains(
                    "onboard: Onboard keeps this folder's tokens and encryption key in the system keyring (items labelled onboard/<flow>/\(state))."
                ))
            let items = keyring.items
            #expect(items.contains("label = onboard/oklah/\(state)"))
            #expect(items.contains("label = onboard/data-key/\(state)"))

            let session = try #require(
                try JSONSerialization.jsonObject(with: Data(lookup(flow: "oklah", kind: "session").utf8)) as? [String: Any])
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

            // A damaged session file on the keyring backend: set aside, and made again from
            // the keyring, which keeps the whole session (issue 47); said in plain words.
            try Data("not json \u{1}".utf8).write(to: URL(fileURLWithPath: state + "/oklah/session.json"))
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(UUID().uuidString).keys").path
            try "wait:Hi,\n".write(toFile: home, atomically: true, encoding: .utf8)
            let damaged = onboard(["run", "oklah", "--headless", "--keys", home, "--wait-timeout", "10s"])
            #expect(damaged.status == 0, "\(damaged.output.suffix(1500))")
            #expect(damaged.output.contains("made again from the system keyring"), "\(damaged.output.suffix(1500))")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: state + "/oklah").contains { $0.hasPrefix("session.json.corrupt-") })

            // Reset removes every item of the folder.
            let reset = onboard(["reset"])
            #expect(reset.status == 0, "\(reset.output)")
            #expect(!keyring.items.contains("label ="))
        }

        /// Issue 30 §3: a folder remembers where its secrets live. Opened from a shell with no
        /// session bus (SSH, cron, a tmux server started outside the desktop) it is refused
        /// with the reason and the ways on, and nothing is set aside or made; back on the
        /// desktop it resumes. `onboard reset` there says what it left, and `onboard secrets
        /// move --to file` makes the folder open anywhere.
        @Test func aFolderWhoseKeyringIsOutOfReachIsRefusedAndNothingChanges() throws {
            let finished = onboard(["run", "oklah", "--headless", "--keys", "\(Self.scripts)/oklah.keys"])
            #expect(finished.status == 0, "\(finished.output.suffix(1500))")
            let before = try stateFiles()
            let noBus = ["env", "-u", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR=/nonexistent", Tmux.binary]
            let resume = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(UUID().uuidString).keys").path
            try "wait:Check in\n".write(toFile: resume, atomically: true, encoding: .utf8)

            let refused = keyring.run(
                noBus + ["run", "oklah", "--headless", "--keys", resume, "--wait-timeout", "10s", "--state-dir", state])
            #expect(refused.status == 1, "\(refused.output.suffix(1500))")
            #expect(
                refused.output.contains(
                    "This folder's tokens and encryption key are in the system keyring (Secret Service), which cannot be reached here: no Secret Service answers here (no D-Bus session bus)."
                ))
            #expect(refused.output.contains("Nothing was changed."))
            #expect(refused.output.contains("onboard secrets move --to file --state-dir \(state)"))
            #expect(try stateFiles() == before, "no file set aside, no private-file key made")

            // Back where the keyring answers: still signed in, at Home.
            let back = onboard(["run", "oklah", "--headless", "--keys", resume, "--wait-timeout", "10s"])
            #expect(back.status == 0, "\(back.output.suffix(1500))")
            #expect(!back.output.contains("could not be read"))

            // Reset with no bus clears the files and names what it left in the keyring.
            let reset = keyring.run(noBus + ["reset", "oklah", "--state-dir", state])
            #expect(reset.status == 1, "\(reset.output)")
            #expect(
                reset.output.contains("Reset oklah in \(state), except its secrets in the system keyring, which cannot be reached here"))
            #expect(reset.output.contains("secret-tool clear application onboard state_dir \(state) flow oklah"))
            #expect(!lookup(flow: "oklah", kind: "session").isEmpty, "the item it could not reach is still there, as it said")

            // Moved to the private file, the folder opens with no bus.
            _ = onboard(["reset", "oklah"])
            let again = onboard(["run", "oklah", "--headless", "--keys", "\(Self.scripts)/oklah.keys"])
            #expect(again.status == 0, "\(again.output.suffix(1500))")
            let move = onboard(["secrets", "move", "--to", "file"])
            #expect(move.status == 0, "\(move.output)")
            #expect(move.output.contains("Moved 2 secrets of \(state) to a private file."))
            #expect(!keyring.items.contains("label ="), "nothing left in the keyring")
            let anywhere = keyring.run(
                noBus + ["run", "oklah", "--headless", "--keys", resume, "--wait-timeout", "10s", "--state-dir", state])
            #expect(anywhere.status == 0, "\(anywhere.output.suffix(1500))")
            #expect(!anywhere.output.contains("could not be read"))
            // And a desktop run keeps using the file rather than making a keyring key.
            let desktop = onboard(["run", "oklah", "--headless", "--keys", resume, "--wait-timeout", "10s"])
            #expect(desktop.status == 0, "\(desktop.output.suffix(1500))")
            #expect(!keyring.items.contains("label ="))
        }

        /// A keyring that cannot store (here: no login keyring, and a prompt no terminal
        /// can show): auto says so and keeps the secrets in the file instead.
        @Test func aKeyringThatCannotStoreSendsAutoToTheFileWithItsReason() throws {
            let locked = try PrivateKeyring(password: "")
            let state = locked.home + "/state"
            let run = locked.run([Tmux.binary, "run", "oklah", "--headless", "--keys", "\(Self.scripts)/oklah.keys", "--state-dir", state])
            #expect(run.status == 0, "\(run.output.suffix(1500))")
            #expect(
                run.output.contains(
                    "onboard: Onboard keeps this folder's tokens and encryption key in a private file (\(state)/secrets): The keyring did not store the secret:"
                ))
            #expect(FileManager.default.fileExists(atPath: state + "/secrets/oklah.session"))
            let explicit = locked.run([
                Tmux.binary, "run", "oklah", "--headless", "--keys", "\(Self.scripts)/oklah.keys", "--state-dir", locked.home + "/other",
                "--secret-store", "keyring",
            ])
            #expect(explicit.status != 0, "keyring asked for and unusable stops the run")
            #expect(explicit.output.contains("--secret-store keyring: The keyring did not store the secret:"))
        }
    }
}
