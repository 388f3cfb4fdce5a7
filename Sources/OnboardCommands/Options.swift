import ArgumentParser
import CivilCalendar
import FoundationEssentials
import InputRules
import Installation
import OnboardRuntime
import ScreenTable
import ServiceAPI
import ServiceClient
import TerminalUI

/// The state folder: every command that reads or writes one takes it.
struct FolderOption: ParsableArguments {
    @Option(
        name: .customLong("state-dir"),
        help: "Folder for sessions, progress and analytics (default: $ONBOARD_STATE_DIR, else $XDG_STATE_HOME/onboard).")
    var stateDirectory: String?

    func stateFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        StateFolder.path(stateDirectory, environment: environment)
    }
}

/// What the state folder keeps beside its files: its secrets and the embedded mock's
/// database. Commands that open either take these.
struct LocalDataOptions: ParsableArguments {
    @Option(
        name: .customLong("secret-store"),
        help:
            "Where tokens and the encryption key for personal data go: auto (the system keyring when a Secret Service answers, else a private file in the state folder), keyring or file (also ONBOARD_SECRET_STORE)."
    )
    var secretStore: SecretStoreMode?

    @Option(
        name: .customLong("mock-db"),
        help:
            "The embedded mock's SQLite file (default: mock.sqlite in the state folder). Two terminals with different state folders can share one."
    )
    var mockDatabase: String?

    /// The values, for what reads them.
    var settings: LocalDataSettings { LocalDataSettings(secretStore: secretStore, mockDatabase: mockDatabase) }

    func validate() throws {
        try settings.validate()
    }
}

/// The service a command talks to: the embedded mock, or an onboard-server and how to
/// trust it.
struct ServiceOptions: ParsableArguments {
    @Option(
        help:
            "The service: 'mock' (the embedded mock, default; also mock://local) or an onboard-server address like http://127.0.0.1:8080 (also ONBOARD_SERVICE)."
    )
    var service: String?

    @Flag(help: "Allow plain http:// to a host other than this machine (passwords and tokens travel unencrypted).")
    var insecure = false

    @Option(name: .customLong("ca-cert"), help: "Trust this PEM certificate for https:// (a self-signed onboard-server).")
    var caCertificate: String?

    /// The values, for what reads them.
    var settings: ServiceSettings { ServiceSettings(service: service, insecure: insecure, caCertificate: caCertificate) }

    func validate() throws {
        try settings.validate()
    }
}

/// Options every command that runs a flow takes: the folder's, the service's, and how to run.
struct RunOptions: ParsableArguments {
    @OptionGroup var folder: FolderOption
    @OptionGroup var local: LocalDataOptions
    @OptionGroup var connection: ServiceOptions

    @Option(help: "Theme: \(Themes.builtinNames.joined(separator: ", ")), or a theme file. NO_COLOR set means mono.")
    var theme: String?

    @Flag(
        help: "Read --flow FILE and a --theme file again whenever they change, keeping where you are: for people writing flows and themes.")
    var watch = RunSettings.defaults.watch

    // Unconditional: `--clock-offset -1h` (as docs/qa.md writes offsets) is a value, not a flag.
    @Option(
        name: .customLong("clock-offset"), parsing: .unconditional,
        help: "Run as if this much later (or earlier: -1h), e.g. 25h, 90m, 2d. Moves the client's clock and the embedded mock's.")
    var clockOffset: String?

    @Option(
        name: .customLong("fault"),
        help:
            "Inject a fault, repeatable: network, server-error, rate-limit, timeout, slow=MS, fail-first=N, reauth-fail, forged-id-token, slow-down, expired-device-code.",
        transform: { text in
            guard let fault = Fault(argument: text) else {
                throw ValidationError("unknown fault '\(text)'; known: \(Fault.kinds.joined(separator: ", "))")
            }
            return fault
        })
    var faults: [Fault] = []

    @Option(
        name: .customLong("simulate"),
        help: "Simulate the device (MIGA), repeatable: biometrics=face_id|touch_id|passcode|none, unsupported=tiktok,x, hiding=pass|fail.",
        transform: { text in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, DeviceSetup.simulationKeys.contains(parts[0]) else {
                throw ValidationError(
                    "--simulate '\(text)': use KEY=VALUE with KEY one of \(DeviceSetup.simulationKeys.joined(separator: ", "))")
            }
            if parts[0] == "biometrics", !DeviceSetup.biometrics.contains(parts[1]) {
                throw ValidationError("--simulate biometrics: one of \(DeviceSetup.biometrics.joined(separator: ", "))")
            }
            if parts[0] == "hiding", !["pass", "fail"].contains(parts[1]) {
                throw ValidationError("--simulate hiding: pass or fail")
            }
            if parts[0] == "unsupported" {
                // A misspelt app would be silently supported: refused, as biometrics are.
                let known = DeviceSetup.apps.map { $0.lowercased() }
                let unknown = parts[1].lowercased().split(separator: ",").map { String($0).trimmingWhitespace }.filter {
                    !$0.isEmpty && !known.contains($0)
                }
                guard unknown.isEmpty else {
                    throw ValidationError(
                        "--simulate unsupported: no app named \(unknown.map { "'\($0)'" }.joined(separator: ", ")); the apps are \(known.joined(separator: ", "))"
                    )
                }
            }
            return (parts[0], parts[1])
        })
    var simulations: [(String, String)] = []

    @Flag(
        help:
            "Accessible mode: plain line prompts (numbered choices, one question at a time) for screen readers and scripts. Used by itself when the terminal cannot draw or input and output are not a terminal."
    )
    var accessible = RunSettings.defaults.accessible

    @Flag(help: "Run without a terminal: keys from --keys, each new screen printed as text (or written to --frames).")
    var headless = RunSettings.defaults.headless

    @Option(help: "The screen size for --headless, WIDTHxHEIGHT.")
    var size = RunSettings.defaults.size

    @Option(help: "A key script for --headless: text, <Enter>, <Tab>, <C-c>…, wait:TEXT, <sms-code>; '-' reads standard input.")
    var keys: String?

    @Option(help: "With --headless, write each frame to this folder (frame-0001.txt …) instead of printing it.")
    var frames: String?

    @Option(name: .customLong("wait-timeout"), help: "How long a wait: in a key script may wait, e.g. 10s.")
    var waitTimeout = RunSettings.defaults.waitTimeout

    @Option(help: "Record the run as an asciicast v2 file (passwords and codes masked).")
    var cast: String?

    /// The values the launcher runs from.
    var settings: RunSettings {
        RunSettings(
            stateDirectory: folder.stateDirectory, local: local.settings, connection: connection.settings, theme: theme, watch: watch,
            clockOffset: clockOffset, faults: faults, simulation: Dictionary(simulations, uniquingKeysWith: { _, last in last }),
            accessible: accessible, headless: headless, size: size, keys: keys, frames: frames, waitTimeout: waitTimeout, cast: cast)
    }

    func validate() throws {
        try settings.validateRun()
    }
}

extension SecretStoreMode: ExpressibleByArgument {}
