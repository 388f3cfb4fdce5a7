import Foundation

/// Private files written so that a kill at any instant leaves the old or the new
/// content, never half: temp file (0600), fsync, rename, fsync of the folder.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try makePrivateDirectory(folder)
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StorageError(path: path, reason: String(cString: strerror(errno))) }
        var written = 0
        let ok = data.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 { if errno == EINTR { continue }; return false }
                written += result
            }
            return fsync(descriptor) == 0
        }
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
        try makePrivateDirectory((path as NSString).deletingLastPathComponent)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StorageError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        _ = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Creates the folder (and parents) as 0700 when missing.
    public static func makePrivateDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(path: path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
    }
}

public struct StorageError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
