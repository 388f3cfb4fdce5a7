import FoundationEssentials
import SecretShim
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Secrets in the freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC) through
/// libsecret, as items labelled onboard/<flow>/<state folder> with the attributes
/// application=onboard, state_dir, flow and kind. A locked keyring is unlocked through
/// the keyring's own prompt.
public struct KeyringSecretStore: SecretStore {
    public let stateDirectory: String
    /// The data key as last read or written: asked for by `auto`'s check and again by the
    /// first save or load, it costs one D-Bus round trip, not two.
    private let dataKey = DataKeyCache()

    /// Fails when libsecret cannot be loaded.
    public init(stateDirectory: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        guard onboard_secret_open(&error) == 0 else { throw SecretStoreError("libsecret is not installed (\(Self.take(error))).") }
        self.stateDirectory = stateDirectory
    }

    public var summary: String { "the system keyring (Secret Service)" }
    public var howSecretsAreLost: String { "the keyring was reset, or the folder came from another computer" }

    public func read(_ item: SecretItem) throws -> String? {
        if item.kind == .dataKey, let known = dataKey.value.withLock({ $0 }) { return known }
        let found = try lookup(item)
        if item.kind == .dataKey { dataKey.value.withLock { $0 = found } }
        return found
    }

    private func lookup(_ item: SecretItem) throws -> String? {
        var error: UnsafeMutablePointer<CChar>?
        let found = onboard_secret_lookup(stateDirectory, item.flow, item.kind.rawValue, &error)
        if let error { throw SecretStoreError("The keyring did not answer: \(Self.take(error)).") }
        guard let found else { return nil }
        defer { onboard_secret_free(found) }
        return String(cString: found)
    }

    public func write(_ secret: String, for item: SecretItem) throws {
        var error: UnsafeMutablePointer<CChar>?
        guard
            onboard_secret_store(item.label(stateDirectory: stateDirectory), stateDirectory, item.flow, item.kind.rawValue, secret, &error)
                == 0
        else {
            throw SecretStoreError("The keyring did not store the secret: \(Self.take(error)).")
        }
        if item.kind == .dataKey { dataKey.value.withLock { $0 = secret } }
    }

    public func delete(_ item: SecretItem) throws {
        if item.kind == .dataKey { dataKey.value.withLock { $0 = nil } }
        var error: UnsafeMutablePointer<CChar>?
        guard onboard_secret_clear(stateDirectory, item.flow, item.kind.rawValue, &error) == 0 else {
            throw SecretStoreError("The keyring did not remove the secret: \(Self.take(error)).")
        }
    }

    /// Every item of this state folder (`onboard reset` with no flow).
    public func deleteAll() throws {
        dataKey.value.withLock { $0 = nil }
        var error: UnsafeMutablePointer<CChar>?
        guard onboard_secret_clear(stateDirectory, nil, nil, &error) == 0 else {
            throw SecretStoreError("The keyring did not remove the secrets: \(Self.take(error)).")
        }
    }

    private static func take(_ error: UnsafeMutablePointer<CChar>?) -> String {
        guard let error else { return "no reason given" }
        defer { free(error) }
        return String(cString: error)
    }
}

/// A reference the struct's copies share.
private final class DataKeyCache: Sendable {
    let value = Mutex<String?>(nil)
}
