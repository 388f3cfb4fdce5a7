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

/// What a run of flows was asked for, in plain values. ArgumentParser's `RunOptions`
/// makes it (`settings`), and so does `PlainRunLine` for a line that names nothing but a
/// flow and a folder; the launcher runs from it, never from the parser's types.
@dynamicMemberLookup
struct RunSettings: Equatable {
    var stateDirectory: String?
    var local = LocalDataSettings()
    var connection = ServiceSettings()
    var theme: String?
    var watch = false
    var clockOffset: String?
    var faults: [Fault] = []
    /// `--simulate KEY=VALUE`, the last of a key winning.
    var simulation: [String: String] = [:]
    var accessible = false
    var headless = false
    var size = "80x24"
    var keys: String?
    var frames: String?
    var waitTimeout = "10s"
    var cast: String?

    /// Every option at its default: the defaults `RunOptions` declares.
    static let defaults = RunSettings()

    subscript<Value>(dynamicMember path: KeyPath<LocalDataSettings, Value>) -> Value { local[keyPath: path] }
    subscript<Value>(dynamicMember path: KeyPath<ServiceSettings, Value>) -> Value { connection[keyPath: path] }

    /// Whether the run reads a file a person wrote: a theme that is not built in, or
    /// `--watch`'s files (onboard-files runs it).
    var readsFiles: Bool { watch || ThemeChoice.readsAFile(theme) }

    func stateFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        StateFolder.path(stateDirectory, environment: environment)
    }

    /// `--size` as numbers.
    func headlessSize() throws -> (width: Int, height: Int) {
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...1000).contains(parts[0]), (1...1000).contains(parts[1]) else {
            throw ValidationError("--size '\(size)' is not WIDTHxHEIGHT, e.g. 80x24")
        }
        return (parts[0], parts[1])
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

    /// Every check ArgumentParser runs on these options, in its order: the secret store's
    /// and the service's, then the run's own.
    func validate(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        try local.validate(environment: environment)
        try connection.validate(environment: environment)
        try validateRun()
    }

    /// The run's own checks (`RunOptions.validate`).
    func validateRun() throws {
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

/// The state folder's secret store and the embedded mock's database, as asked for.
struct LocalDataSettings: Equatable {
    var secretStore: SecretStoreMode?
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

    func validate(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        _ = try secretStoreMode(environment: environment)
    }
}

/// The service asked for: the embedded mock, or an onboard-server and how to trust it.
struct ServiceSettings: Equatable {
    var service: String?
    var insecure = false
    var caCertificate: String?

    /// `mock`, or the address of an onboard-server. `mock://local`, Baby Basics' own name
    /// for the mock (its Server URL screen offers it), is the mock too.
    func serviceName(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let named = service ?? environment["ONBOARD_SERVICE"].flatMap { $0.isEmpty ? nil : $0 } ?? "mock"
        return ["mock", "mock://local", "mock://local/"].contains(named.lowercased()) ? "mock" : named
    }

    func validate(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let serviceName = serviceName(environment: environment)
        guard serviceName != "mock" else { return }
        do {
            _ = try HTTPTransport(base: serviceName, insecure: insecure, trustRoots: caCertificate.map { [$0] } ?? [])
        } catch {
            throw ValidationError("--service: \(error); or 'mock' for the embedded mock")
        }
    }
}
