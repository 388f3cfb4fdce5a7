import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The embedded mock's SQLite file as the client knows it, without opening it (that is
/// `onboard-mock`'s work): whose it is, the key its personal columns are sealed with, and
/// whether opening it will have something to say on the first screen.
public enum EmbeddedMockFile {
    /// A mock file is the folder's own unless `--mock-db` named another, shared one.
    public static func isOwn(_ path: String, stateDirectory: String) -> Bool {
        URL(fileURLWithPath: path).standardizedFileURL.path
            == URL(fileURLWithPath: stateDirectory + "/mock.sqlite").standardizedFileURL.path
    }

    /// The key of a state folder's own mock: derived from the folder's data key, so
    /// whoever can open the folder's progress can open its mock, and nobody else
    /// (DECISIONS 32). Asked for when the mock starts, not before.
    public static func sealingKey(stateDirectory: String, secrets: any SecretStore) -> @Sendable () throws -> [UInt8] {
        let personal = PersonalData(secrets: secrets, stateDirectory: stateDirectory)
        return { try personal.derivedKey(for: "onboard embedded mock").withUnsafeBytes { Array($0) } }
    }

    /// Whether opening the file now will set it aside, so the first screen must wait to
    /// say it: its folder's data key is gone (what it sealed cannot be opened), or it is
    /// not an SQLite file at all. Anything deeper is said when the mock finds it.
    public static func needsSayingAtOnce(_ path: String, own: Bool, secrets: any SecretStore) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        if own, (try? secrets.read(.dataKey)) == nil { return true }
        return !looksLikeSQLite(path)
    }

    /// SQLite's own header (an empty file is a database it will make).
    static func looksLikeSQLite(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = read(descriptor, &header, header.count)
        return count == 0 || (count == 16 && header == Array("SQLite format 3\0".utf8))
    }
}
