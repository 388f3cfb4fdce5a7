import FlowEngine
import Foundation

/// The session file of one flow, and the lock that keeps two processes from
/// refreshing the same session at once.
public struct SessionFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public var lockPath: String { path + ".lock" }

    /// The saved session; nil when missing. Throws when present but unreadable.
    public func load() throws -> Session? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try JSONDecoder().decode(Session.self, from: data)
    }

    public func save(_ session: Session?) throws {
        try AtomicFile.writeJSON(session, to: path)
    }

    /// Runs `body` holding an exclusive `flock` on the lock file; waits for another
    /// process's lock without blocking a thread, up to `patience`.
    public func withLock<T: Sendable>(patience: Duration = .seconds(10), _ body: () async throws -> T) async throws -> T {
        try AtomicFile.makePrivateDirectory((path as NSString).deletingLastPathComponent)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StorageError(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + patience
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                throw StorageError(path: lockPath, reason: "another onboard kept the session locked")
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }
}
