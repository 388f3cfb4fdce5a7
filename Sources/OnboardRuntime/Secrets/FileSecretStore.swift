import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Secrets in `<state folder>/secrets/`, one 0600 file per item in a 0700 folder, for
/// where no Secret Service runs (an SSH session, a container, a headless CI), as the
/// GitHub CLI and git's credential store fall back to a private file.
public struct FileSecretStore: SecretStore {
    public let folder: String

    public init(stateDirectory: String) {
        folder = stateDirectory + "/secrets"
    }

    public var summary: String { "a private file in \(folder)" }
    public var howSecretsAreLost: String { "its secrets/ folder was removed, or the state folder was copied without it" }

    func path(_ item: SecretItem) -> String {
        folder + "/" + (item.kind == .dataKey ? "data-key" : "\(item.flow).session")
    }

    public func read(_ item: SecretItem) throws -> String? {
        guard let data = FileManager.default.contents(atPath: path(item)) else { return nil }
        guard let text = String(data: data, encoding: .utf8) else { throw SecretStoreError("\(path(item)) is not text.") }
        return text
    }

    public func write(_ secret: String, for item: SecretItem) throws {
        try AtomicFile.write(Data(secret.utf8), to: path(item))
    }

    public func deleteAll() throws {
        guard FileManager.default.fileExists(atPath: folder) else { return }
        try FileManager.default.removeItem(atPath: folder)
    }

    public func delete(_ item: SecretItem) throws {
        if unlink(path(item)) != 0, errno != ENOENT {
            throw SecretStoreError("\(path(item)) could not be removed (\(String(cString: strerror(errno)))).")
        }
    }
}
