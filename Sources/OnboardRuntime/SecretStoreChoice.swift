import Foundation

/// `--secret-store auto|keyring|file` (and `ONBOARD_SECRET_STORE`).
public enum SecretStoreMode: String, CaseIterable, Sendable {
    case auto, keyring, file

    /// Which store a state folder uses, and a notice when this is the first time the folder
    /// keeps secrets there (said once, so a person knows where their tokens went).
    /// `keyring` fails with a plain reason when no Secret Service answers; `auto` then uses
    /// the file and says why.
    public func open(stateDirectory: String, environment: [String: String]) throws -> (store: any SecretStore, notice: String?) {
        if self != .file {
            do {
                let keyring = try Self.keyring(stateDirectory: stateDirectory, environment: environment)
                let first = try keyring.read(.dataKey) == nil
                if first { try PersonalData.ensureKey(in: keyring, stateDirectory: stateDirectory) }
                return (keyring, first ? "Onboard keeps this folder's tokens and encryption key in the system keyring (items labelled onboard/<flow>/\(stateDirectory))." : nil)
            } catch let error as SecretStoreError {
                if self == .keyring { throw SecretStoreError("--secret-store keyring: \(error.description)") }
                let file = FileSecretStore(stateDirectory: stateDirectory)
                let first = !FileManager.default.fileExists(atPath: file.folder)
                return (file, first ? "Onboard keeps this folder's tokens and encryption key in a private file (\(file.folder)): \(error.description)" : nil)
            }
        }
        return (FileSecretStore(stateDirectory: stateDirectory), nil)
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
