import FoundationEssentials
import Installation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An advisory lock (`flock`) on a file beside what it guards, held for one read-modify-
/// write, so two processes on one state folder do not each write their own version.
enum FileLock {
    static func exclusive<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try AtomicFile.makePrivateDirectory(PathText.folder(of: path))
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StorageError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
