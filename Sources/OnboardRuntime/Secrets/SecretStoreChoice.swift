import FoundationEssentials
import Synchronization

/// `--secret-store auto|keyring|file` (and `ONBOARD_SECRET_STORE`).
public enum SecretStoreMode: String, CaseIterable, Sendable {
    case auto, keyring, file

    /// Which store a state folder uses, and a notice when this is the first time the folder
    /// keeps secrets there (said once, so a person knows where their tokens went).
    /// A folder that already keeps secrets uses that store (`SecretHome`) or is refused with
    /// the reason; a new one: `keyring` fails with a plain reason when no Secret Service
    /// answers, `auto` then uses the file and says why. The choice is recorded.
    /// `deferred`: made when a secret was first needed, not at launch; a store another
    /// window recorded since is the folder's, whatever this run was started with.
    public func open(
        stateDirectory: String, environment: [String: String], deferred: Bool = false
    ) throws -> (store: any SecretStore, notice: String?) {
        // The check and the record under one lock: two windows choosing a new folder's store
        // at once (a desktop terminal's keyring, an SSH shell's file) must agree on one, or
        // each would make a data key of its own.
        try FileLock.exclusive(SecretHome.lockPath(stateDirectory: stateDirectory)) {
            if let home = SecretHome.recorded(stateDirectory: stateDirectory) {
                return (try (deferred ? .auto : self).openHome(home, stateDirectory: stateDirectory, environment: environment), nil)
            }
            return try choose(stateDirectory: stateDirectory, environment: environment)
        }
    }

    /// A new folder's store, recorded.
    private func choose(stateDirectory: String, environment: [String: String]) throws -> (store: any SecretStore, notice: String?) {
        if self != .file {
            do {
                let keyring = try Self.keyring(stateDirectory: stateDirectory, environment: environment)
                let first = try keyring.read(.dataKey) == nil
                if first { try PersonalData.ensureKey(in: keyring, stateDirectory: stateDirectory) }
                try SecretHome.keyring.record(stateDirectory: stateDirectory)
                return (
                    keyring,
                    first
                        ? "Onboard keeps this folder's tokens and encryption key in the system keyring (items labelled onboard/<flow>/\(stateDirectory))."
                        : nil
                )
            } catch let error as SecretStoreError {
                if self == .keyring { throw SecretStoreError("--secret-store keyring: \(error.description)") }
                let file = FileSecretStore(stateDirectory: stateDirectory)
                try SecretHome.file.record(stateDirectory: stateDirectory)
                return (
                    file, "Onboard keeps this folder's tokens and encryption key in a private file (\(file.folder)): \(error.description)"
                )
            }
        }
        try SecretHome.file.record(stateDirectory: stateDirectory)
        return (FileSecretStore(stateDirectory: stateDirectory), nil)
    }

    /// The folder's own store, refused with the reason and the ways on when it is not the
    /// one asked for or cannot be reached from here.
    public func openHome(_ home: SecretHome, stateDirectory: String, environment: [String: String]) throws -> any SecretStore {
        if self != .auto, rawValue != home.rawValue { throw home.mismatch(asked: self, stateDirectory: stateDirectory) }
        do {
            return try home.open(stateDirectory: stateDirectory, environment: environment)
        } catch let error as SecretStoreError {
            throw home.unreachable(stateDirectory: stateDirectory, reason: error.description)
        }
    }

    /// The stores that may hold a folder's secrets, opened without making anything (no
    /// data key): what a reset clears. The private file always; the keyring with
    /// `keyring`, and with `auto` where one answers. `leftBehind` says why the folder's
    /// keyring items cannot be cleared from here, when they cannot.
    public func storesToClear(
        stateDirectory: String, environment: [String: String]
    ) throws -> (stores: [any SecretStore], leftBehind: String?) {
        let file = FileSecretStore(stateDirectory: stateDirectory)
        switch self {
        case .file: return ([file], nil)
        case .keyring: return ([file, try Self.keyring(stateDirectory: stateDirectory, environment: environment)], nil)
        case .auto:
            do {
                return ([file, try Self.keyring(stateDirectory: stateDirectory, environment: environment)], nil)
            } catch let error as SecretStoreError {
                let home = SecretHome.recorded(stateDirectory: stateDirectory)
                return ([file], home == .keyring ? error.description : nil)
            }
        }
    }

    /// The keyring, if a Secret Service can answer: a session bus to ask, and libsecret.
    static func keyring(stateDirectory: String, environment: [String: String]) throws -> KeyringSecretStore {
        let address = environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        let runtimeBus = (environment["XDG_RUNTIME_DIR"] ?? "/nonexistent") + "/bus"
        guard !address.isEmpty || FileManager.default.fileExists(atPath: runtimeBus) else {
            throw SecretStoreError("no Secret Service answers here (no D-Bus session bus).")
        }
        return try KeyringSecretStore(stateDirectory: stateDirectory)
    }
}

/// A new folder's store, chosen (`auto`) and recorded when a secret is first needed rather
/// than at launch: a first start draws its first screen before any keyring round trip or
/// synced write (its first save makes the data key). Its notice waits for whoever prints
/// it once the terminal is given back. `keyring` is not deferred: a keyring out of reach
/// stops the run before anything changes.
public final class DeferredSecretStore: SecretStore {
    private let choose: @Sendable () -> (store: any SecretStore, notice: String?)
    private let chosen = Mutex<(store: any SecretStore, notice: String?)?>(nil)

    public init(_ mode: SecretStoreMode = .auto, stateDirectory: String, environment: [String: String]) {
        choose = {
            (try? mode.open(stateDirectory: stateDirectory, environment: environment, deferred: true))
                ?? (FileSecretStore(stateDirectory: stateDirectory), nil)
        }
    }

    private var store: any SecretStore {
        chosen.withLock { chosen in
            if let chosen { return chosen.store }
            let made = choose()
            chosen = made
            return made.store
        }
    }

    /// The notice of the choice, if one was made and has not been taken yet.
    public func takeNotice() -> String? {
        chosen.withLock { chosen in
            defer { chosen?.notice = nil }
            return chosen?.notice
        }
    }

    public var summary: String { store.summary }
    public var howSecretsAreLost: String { store.howSecretsAreLost }
    public func read(_ item: SecretItem) throws -> String? { try store.read(item) }
    public func write(_ secret: String, for item: SecretItem) throws { try store.write(secret, for: item) }
    public func delete(_ item: SecretItem) throws { try store.delete(item) }
    public func deleteAll() throws { try store.deleteAll() }
}
