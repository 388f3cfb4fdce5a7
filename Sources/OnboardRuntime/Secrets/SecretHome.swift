import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import InputRules
import Musl
#endif

/// Where a state folder's secrets live, remembered in `<state folder>/secret-store` when
/// the folder first keeps one. A folder opened from a shell that cannot reach that store
/// (SSH, cron, a tmux server started outside the desktop) is refused with the reason and
/// the ways on, never given a second key that would set its progress aside.
public enum SecretHome: String, Sendable {
    case keyring, file

    static func markerPath(stateDirectory: String) -> String { stateDirectory + "/secret-store" }
    /// Held while a new folder's store is chosen and recorded.
    static func lockPath(stateDirectory: String) -> String { stateDirectory + "/.secret-store.lock" }

    /// The recorded home; for a folder from before the marker, the one its files imply:
    /// the private file if its folder exists, else the keyring if a session file says its
    /// tokens are there or a progress file is sealed (its key must then be there). Nil for
    /// a folder with no secrets yet, or files from before secrets at rest.
    public static func recorded(stateDirectory: String) -> SecretHome? {
        let manager = FileManager.default
        if let data = manager.contents(atPath: markerPath(stateDirectory: stateDirectory)),
            let home = SecretHome(rawValue: String(decoding: data, as: UTF8.self).trimmingWhitespace)
        {
            return home
        }
        if manager.fileExists(atPath: FileSecretStore(stateDirectory: stateDirectory).folder) { return .file }
        func object(_ path: String) -> [String: Any]? {
            manager.contents(atPath: path).flatMap(JSONObject.read)
        }
        let flows = (try? manager.contentsOfDirectory(atPath: stateDirectory)) ?? []
        let inKeyring = flows.contains { flow in
            let folder = "\(stateDirectory)/\(flow)/"
            let keptIn = object(folder + "session.json")?[TokensKeptIn.key] as? String
            return keptIn?.contains("keyring") == true || object(folder + "progress.json")?[SealedContext.key] != nil
        }
        return inKeyring ? .keyring : nil
    }

    public func record(stateDirectory: String) throws {
        try AtomicFile.write(Data("\(rawValue)\n".utf8), to: Self.markerPath(stateDirectory: stateDirectory))
    }

    public static func forget(stateDirectory: String) {
        unlink(markerPath(stateDirectory: stateDirectory))
    }

    /// In a person's words, for messages.
    public var name: String {
        switch self {
        case .keyring: "the system keyring (Secret Service)"
        case .file: "a private file"
        }
    }

    /// The store itself; throws with the reason when it cannot be reached from here.
    public func open(stateDirectory: String, environment: [String: String]) throws -> any SecretStore {
        switch self {
        case .file: FileSecretStore(stateDirectory: stateDirectory)
        case .keyring: try SecretStoreMode.keyring(stateDirectory: stateDirectory, environment: environment)
        }
    }

    /// The refusal when this home cannot be reached: which store, why, and the two ways on.
    func unreachable(stateDirectory: String, reason: String) -> SecretStoreError {
        SecretStoreError(
            """
            This folder's tokens and encryption key are in \(name), which cannot be reached here: \(reason)
            Nothing was changed. Two ways on:
              - run onboard where the keyring can be reached (your desktop session), or
              - there, run `onboard secrets move --to file --state-dir \(stateDirectory)`
                to keep them in a private file that any shell can open.
            """)
    }

    /// The refusal when a store other than the folder's own is asked for.
    func mismatch(asked: SecretStoreMode, stateDirectory: String) -> SecretStoreError {
        let other: SecretHome = self == .keyring ? .file : .keyring
        return SecretStoreError(
            """
            --secret-store \(asked.rawValue): this folder's tokens and encryption key are in \(name), not in \(other.name). \
            Nothing was changed. To move them, run `onboard secrets move --to \(other.rawValue) --state-dir \(stateDirectory)`.
            """)
    }
}

extension SecretHome {
    /// Moves every secret of the folder (its data key and each flow's session) here from
    /// where they are, then records the new home and clears the old. Copied and read back
    /// before anything is removed: a kill midway leaves the old home whole. Returns how
    /// many items moved.
    @discardableResult
    public func move(stateDirectory: String, environment: [String: String]) throws -> Int {
        guard let from = Self.recorded(stateDirectory: stateDirectory), from != self else {
            try record(stateDirectory: stateDirectory)
            return 0
        }
        let source = try SecretStoreMode.auto.openHome(from, stateDirectory: stateDirectory, environment: environment)
        let target = try SecretStoreMode.auto.openHome(self, stateDirectory: stateDirectory, environment: environment)
        let flows = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []
        let items = [SecretItem.dataKey] + flows.sorted().map(SecretItem.session)
        var moved: [SecretItem] = []
        for item in items {
            guard let secret = try source.read(item) else { continue }
            try target.write(secret, for: item)
            guard try target.read(item) == secret else {
                throw SecretStoreError(
                    "\(name) did not give back what was stored for \(item.label(stateDirectory: stateDirectory)); nothing was moved.")
            }
            moved.append(item)
        }
        try record(stateDirectory: stateDirectory)
        for item in moved { try source.delete(item) }
        if from == .file { try source.deleteAll() }
        return moved.count
    }
}
