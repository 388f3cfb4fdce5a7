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

    /// `--secret-store`, else `ONBOARD_SECRET_STORE`, else auto.
    func secretStoreMode(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SecretStoreMode {
        if let secretStore { return secretStore }
        guard let named = environment["ONBOARD_SECRET_STORE"], !named.isEmpty else { return .auto }
        guard let mode = SecretStoreMode(rawValue: named) else {
            throw ValidationError("ONBOARD_SECRET_STORE=\(named): use auto, keyring or file")
        }
        return mode
    }

    /// The state folder's secret store. A folder that keeps secrets opens its own store now,
    /// so one out of reach stops the run before anything changes; for a new folder `auto`
    /// and `file` choose when a secret is first needed (the launcher prints `auto`'s notice
    /// once the terminal is given back), `keyring` now.
    func openSecretStore(stateFolder: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any SecretStore
    {
        let mode = try secretStoreMode(environment: environment)
        // Read once: the folder's own store, the choice `auto` defers, or a new one's.
        if let home = SecretHome.recorded(stateDirectory: stateFolder) {
            return try mode.openHome(home, stateDirectory: stateFolder, environment: environment)
        }
        if mode != .keyring { return DeferredSecretStore(mode, stateDirectory: stateFolder, environment: environment) }
        let (store, notice) = try mode.open(stateDirectory: stateFolder, environment: environment)
        if let notice { printError("onboard: \(notice)") }
        return store
    }

    func validate() throws {
        _ = try secretStoreMode()
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

    /// `mock`, or the address of an onboard-server. `mock://local`, Baby Basics' own name
    /// for the mock (its Server URL screen offers it), is the mock too.
    var serviceName: String {
        let named = service ?? ProcessInfo.processInfo.environment["ONBOARD_SERVICE"].flatMap { $0.isEmpty ? nil : $0 } ?? "mock"
        return ["mock", "mock://local", "mock://local/"].contains(named.lowercased()) ? "mock" : named
    }

    func validate() throws {
        guard serviceName != "mock" else { return }
        do {
            _ = try HTTPTransport(base: serviceName, insecure: insecure, trustRoots: caCertificate.map { [$0] } ?? [])
        } catch {
            throw ValidationError("--service: \(error); or 'mock' for the embedded mock")
        }
    }
}

/// Options every command that runs a flow takes: the folder's, the service's, and how to run.
@dynamicMemberLookup
struct RunOptions: ParsableArguments {
    @OptionGroup var folder: FolderOption
    @OptionGroup var local: LocalDataOptions
    @OptionGroup var connection: ServiceOptions

    subscript<Value>(dynamicMember path: KeyPath<FolderOption, Value>) -> Value { folder[keyPath: path] }
    subscript<Value>(dynamicMember path: KeyPath<LocalDataOptions, Value>) -> Value { local[keyPath: path] }
    subscript<Value>(dynamicMember path: KeyPath<ServiceOptions, Value>) -> Value { connection[keyPath: path] }

    @Option(help: "Theme: \(Themes.builtinNames.joined(separator: ", ")), or a theme file. NO_COLOR set means mono.")
    var theme: String?

    @Flag(
        help: "Read --flow FILE and a --theme file again whenever they change, keeping where you are: for people writing flows and themes.")
    var watch = false

    /// Whether the run reads a file a person wrote: a theme that is not built in, or
    /// `--watch`'s files (onboard-files runs it).
    var readsFiles: Bool { watch || ThemeChoice.readsAFile(theme) }

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
    var accessible = false

    @Flag(help: "Run without a terminal: keys from --keys, each new screen printed as text (or written to --frames).")
    var headless = false

    @Option(help: "The screen size for --headless, WIDTHxHEIGHT.")
    var size = "80x24"

    @Option(help: "A key script for --headless: text, <Enter>, <Tab>, <C-c>…, wait:TEXT, <sms-code>; '-' reads standard input.")
    var keys: String?

    @Option(help: "With --headless, write each frame to this folder (frame-0001.txt …) instead of printing it.")
    var frames: String?

    @Option(name: .customLong("wait-timeout"), help: "How long a wait: in a key script may wait, e.g. 10s.")
    var waitTimeout = "10s"

    @Option(help: "Record the run as an asciicast v2 file (passwords and codes masked).")
    var cast: String?

    /// `--size` as numbers.
    func headlessSize() throws -> (width: Int, height: Int) {
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...1000).contains(parts[0]), (1...1000).contains(parts[1]) else {
            throw ValidationError("--size '\(size)' is not WIDTHxHEIGHT, e.g. 80x24")
        }
        return (parts[0], parts[1])
    }

    var simulation: [String: String] {
        Dictionary(simulations, uniquingKeysWith: { _, last in last })
    }

    func stateFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        folder.stateFolder(environment: environment)
    }

    func clockOffsetSeconds() throws -> Int64 {
        guard let clockOffset else { return 0 }
        guard let seconds = DurationText.seconds(clockOffset) else {
            throw ValidationError("--clock-offset '\(clockOffset)' is not a duration like 25h, 90m, 2d or 23h56m")
        }
        guard ClockOffset.isAllowed(seconds) else {
            throw ValidationError("--clock-offset '\(clockOffset)' is too far: at most 100 years (36600d) either way")
        }
        return seconds
    }

    func openSecretStore(stateFolder: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any SecretStore
    {
        try local.openSecretStore(stateFolder: stateFolder, environment: environment)
    }

    func validate() throws {
        _ = try clockOffsetSeconds()
        if headless, accessible {
            throw ValidationError("--headless and --accessible are two different ways to run without screens; pick one")
        }
        if headless {
            _ = try headlessSize()
            guard keys != nil else { throw ValidationError("--headless needs --keys FILE (or - for standard input)") }
            guard DurationText.seconds(waitTimeout) != nil else {
                throw ValidationError("--wait-timeout '\(waitTimeout)' is not a duration like 10s")
            }
        }
    }
}

extension SecretStoreMode: ExpressibleByArgument {}
