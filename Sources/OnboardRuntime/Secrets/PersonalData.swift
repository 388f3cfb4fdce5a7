import Crypto
import FoundationEssentials
import Synchronization

/// The personal values a state folder keeps on disk (names, phone, email, dates of birth,
/// profile answers, MIGA's choices: a progress file's whole context), sealed with
/// AES-256-GCM under one random key per state folder that lives in the secret store.
final class PersonalData: Sendable {
    private let secrets: any SecretStore
    private let lockPath: String
    /// Read once per process: a save does not ask the keyring again.
    private let cached = Mutex<SymmetricKey?>(nil)

    init(secrets: any SecretStore, stateDirectory: String) {
        self.secrets = secrets
        lockPath = Self.lockPath(stateDirectory: stateDirectory)
    }

    /// Held while a folder's first key is made (see `makeKey`).
    static func lockPath(stateDirectory: String) -> String { stateDirectory + "/.data-key.lock" }

    /// A key this computer no longer has (keyring reset, folder copied elsewhere).
    struct MissingKey: Error {}

    func seal(_ plain: Data) throws -> String {
        try AES.GCM.seal(plain, using: key(creating: true)).combined!.base64EncodedString()
    }

    func open(_ sealed: String) throws -> Data {
        guard let combined = Data(base64Encoded: sealed) else { throw MissingKey() }
        return try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key(creating: false))
    }

    /// This device's proof of an idempotency key: HMAC-SHA256 under the folder's data key,
    /// so a repeat of a sign-in from this folder (after a kill, a lost reply) gets its
    /// session again, and one from anywhere else with the same key does not.
    func proof(of idempotencyKey: String) throws -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(("idempotency-proof:" + idempotencyKey).utf8), using: try key(creating: true))
        return mac.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// A key for another use of the folder's data key (the embedded mock's columns),
    /// derived apart so no two uses share one.
    func derivedKey(for purpose: String) throws -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: try key(creating: true), info: Data(purpose.utf8), outputByteCount: 32)
    }

    private func key(creating: Bool) throws -> SymmetricKey {
        if let known = cached.withLock({ $0 }) { return known }
        if let stored = try Self.storedKey(in: secrets) { cached.withLock { $0 = stored }; return stored }
        guard creating else { throw MissingKey() }
        let made = try Self.makeKey(in: secrets, lockPath: lockPath)
        cached.withLock { $0 = made }
        return made
    }

    /// The folder's key, made now if it has none: `auto` makes it when it opens the
    /// keyring, so a keyring that cannot store is found before anything is saved there.
    static func ensureKey(in secrets: any SecretStore, stateDirectory: String) throws {
        _ = try makeKey(in: secrets, lockPath: lockPath(stateDirectory: stateDirectory))
    }

    /// The stored key, or a new one stored. Two processes making the folder's first key
    /// at once must agree on one: the check and the write happen under a lock.
    private static func makeKey(in secrets: any SecretStore, lockPath: String) throws -> SymmetricKey {
        try FileLock.exclusive(lockPath) {
            if let stored = try storedKey(in: secrets) { return stored }
            let fresh = SymmetricKey(size: .bits256)
            try secrets.write(fresh.withUnsafeBytes { Data($0) }.base64EncodedString(), for: .dataKey)
            return fresh
        }
    }

    private static func storedKey(in secrets: any SecretStore) throws -> SymmetricKey? {
        guard let text = try secrets.read(.dataKey) else { return nil }
        guard let bytes = Data(base64Encoded: text), bytes.count == 32 else { throw MissingKey() }
        return SymmetricKey(data: bytes)
    }
}
