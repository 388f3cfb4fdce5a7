import FlowEngine
import Foundation
import OnboardRuntime
import TerminalUI
import Testing
import TestSupport

/// Runs the real `onboard` binary in a private tmux server and reads the screen the
/// way a person would: send keys, capture the pane.
final class Tmux {
    let socket = "onboard-e2e-\(UUID().uuidString.prefix(8))"
    let stateDirectory: String

    init(stateDirectory: String? = nil) {
        self.stateDirectory =
            stateDirectory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("onboard-e2e-\(UUID().uuidString)").path
    }

    deinit {
        _ = Self.tmux(["-L", socket, "kill-server"])
    }

    /// The `onboard` binary SwiftPM built beside the test bundle.
    static let binary = BuiltExecutable.path("onboard")

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Starts `onboard ARGUMENTS` (with this test's state folder) in a shell that
    /// prints `[exit N]` when it ends, at the start of a line of its own: after a kill the
    /// shell's "Killed" line names the whole command, and a marker after it would wrap
    /// at a column that depends on the checkout's path. `\r` as well as `\n`: a killed
    /// onboard leaves the terminal raw, where a newline does not return the carriage.
    func start(_ arguments: String, width: Int = 80, height: Int = 24, environment: String = "") {
        let command =
            "cd \(Self.packageRoot) && env LANG=C.UTF-8 ONBOARD_SECRET_STORE=file \(environment) \(Self.binary) \(arguments) --state-dir \(stateDirectory); code=$?; printf '\\r\\n[exit %d]\\r\\n' $code; sleep 600"
        if Self.tmux(["-L", socket, "has-session", "-t", "main"]).status == 0 {
            _ = Self.tmux(["-L", socket, "respawn-pane", "-k", "-t", "main", command])
            _ = Self.tmux(["-L", socket, "resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
        } else {
            _ = Self.tmux([
                "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(width)", "-y", "\(height)", command,
            ])
        }
    }

    /// An interactive shell with job control in the pane, for what a person does at a
    /// prompt: `stty -g`, Ctrl-Z and `fg`.
    func startShell(width: Int = 80, height: Int = 24) {
        let shell = "env LANG=C.UTF-8 PS1='$ ' bash --norc --noprofile -i"
        _ = Self.tmux(["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(width)", "-y", "\(height)", shell])
    }

    /// The command line that runs onboard with this test's state folder.
    func commandLine(_ arguments: String) -> String {
        "ONBOARD_SECRET_STORE=file \(Self.binary) \(arguments) --state-dir \(stateDirectory)"
    }

    /// A tmux format about the pane, such as `#{alternate_on}`.
    func pane(_ format: String) -> String {
        Self.tmux(["-L", socket, "display-message", "-p", "-t", "main", format]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func send(_ keys: String...) {
        _ = Self.tmux(["-L", socket, "send-keys", "-t", "main"] + keys)
    }

    /// Sends raw bytes, as a terminal would for a key (`"1b 5b 31 7e"` is Home in tmux).
    func sendBytes(_ hex: String) {
        _ = Self.tmux(["-L", socket, "send-keys", "-t", "main", "-H"] + hex.split(separator: " ").map(String.init))
    }

    /// Types text literally (no key names).
    func type(_ text: String) {
        _ = Self.tmux(["-L", socket, "send-keys", "-t", "main", "-l", text])
    }

    /// Pastes text as a terminal does when the program asked for bracketed paste.
    func paste(_ text: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-paste-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        defer { unlink(file) }
        _ = Self.tmux(["-L", socket, "load-buffer", "-b", "paste", file])
        _ = Self.tmux(["-L", socket, "paste-buffer", "-p", "-b", "paste", "-t", "main"])
    }

    func resize(width: Int, height: Int) {
        _ = Self.tmux(["-L", socket, "resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
    }

    var screen: String {
        Self.tmux(["-L", socket, "capture-pane", "-p", "-t", "main"]).output
    }

    /// The screen with its colours and attributes, as SGR escape sequences.
    var styledScreen: String {
        Self.tmux(["-L", socket, "capture-pane", "-p", "-e", "-t", "main"]).output
    }

    /// Waits until the screen shows `text`; records an issue with the screen if it never
    /// does. A generous limit for a slow machine, not a speed test.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = screen
            // A capture can catch a screen half drawn: take it once it holds still.
            if last.contains(text) {
                usleep(30_000)
                let again = screen
                if again == last { return last }
                continue
            }
            usleep(50_000)
        }
        Issue.record("'\(text)' never appeared. The screen:\n\(last)", sourceLocation: sourceLocation)
        return last
    }

    /// Waits for a screen that came by itself (a poll's answer, a background renewal's),
    /// then reads it before typing, as a person does: keys in the moment after such a
    /// screen appears were typed at the one before, and are let go (DECISIONS 54).
    @discardableResult
    func waitToRead(_ text: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let shown = waitFor(text, seconds: seconds, sourceLocation: sourceLocation)
        let reading = (FlowSession.keysMeantForTheScreenBefore + .milliseconds(200)).components
        usleep(useconds_t(reading.seconds * 1_000_000 + reading.attoseconds / 1_000_000_000_000))
        return shown
    }

    /// The process id of the running onboard, for sending it signals.
    var onboardPID: Int32? {
        let result = Subprocess.run("/usr/bin/pgrep", ["-f", "state-dir \(stateDirectory)$"])
        return result.output.split(separator: "\n").compactMap { Int32($0) }.first
    }

    /// The three names the service offered, from the saved progress.
    var offeredNames: [String] {
        guard case .list(let names)? = saved(in: "oklah")?["name_options"] else { return [] }
        return names
    }

    var sessionFile: [String: Any]? { session(of: "oklah") }

    /// The flow's saved session, tokens included, as a dictionary (read as onboard reads
    /// it: session.json and the state folder's secret file).
    func session(of flow: String) -> [String: Any]? {
        guard let session = try? StateStore(stateDirectory: stateDirectory, flowID: flow).sessionFile.load(),
            let data = try? JSONEncoder().encode(session)
        else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The flow's saved progress context, opened with the state folder's data key.
    func saved(in flow: String) -> [String: Value]? {
        StateStore(stateDirectory: stateDirectory, flowID: flow).load().progress?.context
    }

    /// A text value the flow saved in its progress context.
    func saved(_ key: String, in flow: String) -> String? {
        saved(in: flow)?[key]?.text
    }

    /// Waits until the flow's saved progress holds `value` under `key` — what a pause in
    /// typing promises — and says whether it did. A generous limit for a slow machine.
    func waitUntilSaved(_ key: String, in flow: String, is value: String, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if saved(key, in: flow) == value { return true }
            usleep(100_000)
        }
        return false
    }

    func userID(of flow: String) -> String? {
        session(of: flow)?["userID"] as? String
    }

    /// Plays a QA key script as a person would type it; returns the screen at the end.
    @discardableResult
    func play(_ script: KeyScript, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        var last = screen
        for step in script.steps {
            switch step {
            case .wait(let text):
                last = waitFor(text, sourceLocation: sourceLocation)
            case .keys(let keys):
                for key in keys { press(key) }
            case .smsCode:
                Issue.record("play: <sms-code> needs the outbox", sourceLocation: sourceLocation)
            }
        }
        return last
    }

    private func press(_ key: Key) {
        if case .character(let character) = key {
            type(String(character))
        } else {
            send(Self.name(of: key))
        }
    }

    /// tmux's name for a key (`send-keys` without -l).
    static func name(of key: Key) -> String {
        switch key {
        case .character(let character): String(character)
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "BTab"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .backspace: "BSpace"
        case .delete: "DC"
        case .insert: "IC"
        case .escape: "Escape"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PPage"
        case .pageDown: "NPage"
        case .control(let letter): "C-\(letter)"
        case .function(let number): "F\(number)"
        case .modified(let base, let modifiers):
            (modifiers.contains(.control) ? "C-" : "") + (modifiers.contains(.alt) ? "M-" : "")
                + (modifiers.contains(.shift) ? "S-" : "") + name(of: base)
        }
    }

    @discardableResult
    static func tmux(_ arguments: [String]) -> (status: Int32, output: String) {
        Subprocess.run("/usr/bin/env", ["tmux"] + arguments)
    }
}
