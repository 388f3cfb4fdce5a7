import FoundationEssentials
import Installation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Private files written so that a kill at any instant leaves the old or the new
/// content, never half: temp file (0600), fsync, rename, fsync of the folder.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String) throws {
        let folder = PathText.folder(of: path)
        try makePrivateDirectory(folder)
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StorageError(path: path, reason: String(cString: strerror(errno))) }
        let ok = data.withUnsafeBytes { writeAll($0, to: descriptor) } && fsync(descriptor) == 0
        close(descriptor)
        guard ok, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw StorageError(path: path, reason: reason)
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Writes `value` as pretty, key-sorted JSON; nil removes the file.
    public static func writeJSON<T: Encodable>(_ value: T?, to path: String) throws {
        guard let value else {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try write(encoder.encode(value), to: path)
    }

    /// Adds one record to the end of a private log (0600) in one write, so lines from two
    /// processes never interleave. Not fsynced: logs are bookkeeping, not progress.
    public static func append(_ data: Data, to path: String) throws {
        try makePrivateDirectory(PathText.folder(of: path))
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StorageError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        _ = data.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Creates the folder (and parents) as 0700 when missing.
    public static func makePrivateDirectory(_ path: String) throws {
        // The working folder (a file named with no folder) is there already.
        guard !path.isEmpty else { return }
        // Each missing folder on the way made 0700, as `mkdir -p -m 700` would.
        var folder = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            folder += (folder.isEmpty || folder == "/" ? "" : "/") + part
            guard mkdir(folder, 0o700) != 0, errno != EEXIST else { continue }
            throw StorageError(path: path, reason: "cannot create the folder (\(String(cString: strerror(errno))))")
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw StorageError(path: path, reason: "cannot create the folder (a file is in its place)")
        }
    }
}

public struct StorageError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
