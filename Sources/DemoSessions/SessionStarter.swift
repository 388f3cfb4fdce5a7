import Dispatch
import Foundation
import SessionZygote

/// Starts a demo server's sessions, one after another, off the threads that carry the
/// sessions' bytes. A start blocks: a private folder made, a pseudo-terminal opened, the
/// zygote's fork or a spawn awaited. On a NIO event loop or one of Swift's cooperative
/// threads (two on a 2-core machine) it held back every running session's output with
/// it: 500 visitors at once got their first screens all together, once the last had
/// started. Starts take turns anyway (the zygote forks one at a time), so one queue
/// loses nothing.
public final class SessionStarter: Sendable {
    /// What each session runs, before its own `--state-dir`.
    private let executable: String
    private let arguments: [String]
    /// The warm onboard sessions are forked from, when there is one (DECISIONS 60).
    private let zygote: SessionZygote?
    /// A serial queue with a label overcommits: it has a thread of its own while it has
    /// work, so blocking it holds back nothing else.
    private let queue = DispatchQueue(label: "onboard.session-starter")

    public init(executable: String, arguments: [String], zygote: SessionZygote?) {
        (self.executable, self.arguments, self.zygote) = (executable, arguments, zygote)
    }

    /// One session whose state is kept in `folder` (made private now, removed if the
    /// start fails), then `then` with it or why not: called on the starter's queue, so
    /// hop back to an event loop from there.
    public func start(
        folder: String, environment: [String: String], rows: Int, columns: Int,
        then: @escaping @Sendable (Result<SessionProcess, any Error>) -> Void
    ) {
        queue.async { [self] in
            then(Result { try start(folder: folder, environment: environment, rows: rows, columns: columns) })
        }
    }

    /// The same, suspending the caller (not blocking its thread) meanwhile.
    public func start(folder: String, environment: [String: String], rows: Int, columns: Int) async throws -> SessionProcess {
        try await withCheckedThrowingContinuation { continuation in
            start(folder: folder, environment: environment, rows: rows, columns: columns) { continuation.resume(with: $0) }
        }
    }

    private func start(folder: String, environment: [String: String], rows: Int, columns: Int) throws -> SessionProcess {
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return try SessionProcess(
                executable: executable, arguments: arguments + ["--state-dir", folder], environment: environment, rows: rows,
                columns: columns, zygote: zygote)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }
}
