import Foundation
import GRDB
import Synchronization

/// Copies the write-ahead log back into the database file on a connection of its own,
/// beside the writer, while writes keep coming.
///
/// What it is for: SQLite's automatic checkpoint runs inside the commit that fills the
/// log. It copies every page and waits for the file's fsync, and every write queued
/// behind that commit waits too (a quarter of the writer's time under sign-ins,
/// measured: DECISIONS 42).
///
/// States: **closed** (no commit yet: a process that only reads opens no second
/// connection) → **quiet** (commits far apart: the log is left to SQLite's own
/// checkpoint, and no copy races the next transaction for the log's locks) → **copying**
/// (a commit came within `interval` of the last: one passive copy runs on the second
/// connection) → **copying again** (commits came during the copy: one more after
/// `interval`) → quiet. **Unavailable** when the second connection cannot be opened:
/// SQLite's checkpoint is left as it was.
///
/// The writer's own checkpoint stays, moved to `writerMark` pages and passive: it finishes
/// what the copy left, and the next commit starts the log over.
///
/// Without it: under load, every thousandth write waits for a whole checkpoint and its
/// fsync, and every write behind it waits too.
final class Checkpointer: Sendable {
    /// Pages of log at which the writer checkpoints itself (SQLite's default is 1,000).
    static let writerMark = 4_000
    /// Commits closer than this are load, and the least time between two copies: each
    /// ends in an fsync, and a copy of a few pages costs nearly what one of a thousand does.
    static let interval = Duration.milliseconds(20)

    private struct State {
        var connection: DatabaseQueue?
        var unavailable = false
        var running = false
        var again = false
        var lastCommit: ContinuousClock.Instant?
    }

    private let path: String
    private let state = Mutex(State())

    /// For the writer of the database file at `path`; nil for a database in memory.
    init?(path: String) {
        guard !path.isEmpty, path != ":memory:" else { return nil }
        self.path = path
    }

    /// Called by the writer after each commit, on its queue.
    func committed(_ writer: Database) {
        guard let connection = connection(for: writer) else { return }
        let now = ContinuousClock.now
        let start = state.withLock { state in
            defer { state.lastCommit = now }
            guard let last = state.lastCommit, now - last < Self.interval else { return false }
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        if start { copy(on: connection) }
    }

    /// The second connection, opened on the first commit, when the writer's own
    /// checkpoint moves to `writerMark`. nil (SQLite's checkpoint left as it was) when it
    /// cannot be opened.
    private func connection(for writer: Database) -> DatabaseQueue? {
        let (opened, unavailable) = state.withLock { ($0.connection, $0.unavailable) }
        if let opened { return opened }
        if unavailable { return nil }
        var configuration = Configuration()
        configuration.label = "checkpointer"
        configuration.busyMode = .immediateError
        guard let connection = try? DatabaseQueue(path: path, configuration: configuration),
            (try? writer.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.writerMark)")) != nil
        else {
            state.withLock { $0.unavailable = true }
            return nil
        }
        state.withLock { $0.connection = connection }
        return connection
    }

    private func copy(on connection: DatabaseQueue, after previous: ContinuousClock.Instant? = nil) {
        connection.asyncWriteWithoutTransaction { db in
            // This connection's own queue: waiting here holds up nothing but the copy.
            if let previous, case let wait = previous + Self.interval - .now, wait > .zero {
                Thread.sleep(forTimeInterval: wait / .seconds(1))
            }
            let started = ContinuousClock.now
            // Passive: copies what no reader still needs and waits for nobody; a checkpoint
            // lock held elsewhere (another process's copy) is simply tried next time.
            _ = try? db.checkpoint(.passive)
            let again = self.state.withLock { state in
                defer { state.again = false }
                state.running = state.again
                return state.again
            }
            if again { self.copy(on: connection, after: started) }
        }
    }
}
