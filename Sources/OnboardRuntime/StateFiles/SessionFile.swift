import FlowEngine
import FoundationEssentials
import Installation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The session file of one flow, and the lock that keeps two processes from
/// refreshing the same session at once. The tokens are not in the file: the whole
/// session is kept in the secret store (the system keyring, or a private file), and
/// `session.json` holds the rest, readable, with `tokensKeptIn` saying where they are.
public struct SessionFile: Sendable {
    public let path: String
    public let secrets: any SecretStore
    /// The flow's id: the session's item in the secret store.
    let flow: String

    /// `path` is `<state folder>/<flow>/session.json`; secrets default to the state
    /// folder's private file.
    public init(path: String, secrets: (any SecretStore)? = nil) {
        self.path = path
        let folder = PathText.folder(of: path)
        flow = PathText.name(of: folder)
        self.secrets = secrets ?? FileSecretStore(stateDirectory: PathText.folder(of: folder))
    }

    public var lockPath: String { path + ".lock" }

    /// Held while a call may change who the folder holds (a sign-in, a sign-out): two
    /// windows pressing Start together make one account, not two. Apart from `lockPath`,
    /// which a renewal inside such a call takes.
    public var identityLockPath: String { PathText.folder(of: path) + "/identity.lock" }

    /// The user id of the session the folder holds now, read from the file's readable
    /// half (no secret needed); nil when it holds none or the file cannot be read.
    public func holder() -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONDecoder().decode(Holder.self, from: data))?.userID
    }

    private struct Holder: Decodable {
        var userID: String
    }

    /// The session's tokens were not where its file says (a reset keyring, a folder
    /// copied from another machine).
    public struct MissingTokens: Error, CustomStringConvertible {
        public var keptIn: String
        public var description: String { "its tokens are no longer in \(keptIn)" }
    }

    /// The saved session; nil when missing. Throws when present but unreadable, or when
    /// its tokens cannot be found.
    public func load() throws -> Session? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let record = try JSONDecoder().decode(SessionRecord.self, from: data)
        // A file from before the secret store: its tokens are in it, and move on the next save.
        guard let keptIn = record.extra else { return record.value }
        guard let secret = try secrets.read(.session(flow)) else { throw MissingTokens(keptIn: keptIn) }
        return try JSONDecoder().decode(Session.self, from: Data(secret.utf8))
    }

    /// The session as the secret store keeps it, whole (it is written there first), with
    /// its file made again from it: what a damaged `session.json` is recovered from. Nil
    /// when the store has none.
    public func recover() throws -> Session? {
        guard let secret = try secrets.read(.session(flow)) else { return nil }
        let session = try JSONDecoder().decode(Session.self, from: Data(secret.utf8))
        try save(session)
        return session
    }

    /// The secret first, then the file: a kill in between leaves the file pointing at a
    /// secret that is already the new one. Signing out removes the file first.
    public func save(_ session: Session?) throws {
        guard let session else {
            try AtomicFile.writeJSON(nil as SessionRecord?, to: path)
            try secrets.delete(.session(flow))
            return
        }
        try secrets.write(String(decoding: try JSONEncoder().encode(session), as: UTF8.self), for: .session(flow))
        var readable = session
        readable.accessToken = ""
        readable.refreshToken = ""
        try AtomicFile.writeJSON(SessionRecord(readable, extra: secrets.summary), to: path)
    }

    /// Runs `body` holding an exclusive `flock` on the lock file; waits for another
    /// process's lock without blocking a thread, up to `patience`.
    public func withLock<T: Sendable>(patience: Duration = .seconds(10), _ body: () async throws -> T) async throws -> T {
        try await Self.withLock(lockPath, patience: patience, body)
    }

    /// Runs `body` holding the folder's identity lock (see `identityLockPath`).
    public func withIdentityLock<T: Sendable>(patience: Duration, _ body: () async throws -> T) async throws -> T {
        try await Self.withLock(identityLockPath, patience: patience, body)
    }

    private static func withLock<T: Sendable>(_ lockPath: String, patience: Duration, _ body: () async throws -> T) async throws -> T {
        try AtomicFile.makePrivateDirectory(PathText.folder(of: lockPath))
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

/// `session.json`: the session's fields with its tokens blank, and where they are kept.
typealias SessionRecord = StateFileRecord<Session, TokensKeptIn>
