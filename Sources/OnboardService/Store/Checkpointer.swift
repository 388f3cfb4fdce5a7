import Foundation
import GRDB
import Synchronization

/// Copies the write-ahead log back into the database file on a connection of its own,
/// beside the writer instead of inside it. SQLite's automatic checkpoint runs in the
/// commit that fills the log: it copies every page and waits for the file's fsync, and
/// every write queued behind that commit waits too (a quarter of the writer's time under
/// sign-ins, measured; DECISIONS 42).
///
/// A copy beside the writer rarely catches up with it, and the log only starts over from
/// its beginning once everything in it is copied. So once the log holds `restartMark`
/// pages, the writer itself, between two commits, copies the little that is left and the
/// next commit starts the log over. Its copy is passive too: it never waits, neither for
/// the copy beside it nor for a long read in another process (`onboard-server funnel` on
/// the same file); it is tried again after the next commit until it has copied it all.
///
/// Nothing happens before the first commit: a process that only reads (a terminal that
/// never writes to its mock) opens no second connection.
final class Checkpointer: Sendable {
    /// Pages of log after which the writer finishes the copy (SQLite's automatic
    /// checkpoint runs every 1,000).
    static let restartMark = 4_000
    /// The least time between two copies: each ends in an fsync, and a copy of a few
    /// pages costs nearly what one of a thousand does.
    static let interval = Duration.milliseconds(20)

    private struct State {
        var connection: DatabaseQueue?
        var unavailable = false
        var running = false
        var again = false
        var logIsLong = false
    }

    private let path: String
    private let state = Mutex(State())

    /// For the writer of the database file at `path`; nil for a database in memory.
    init?(path: String) {
        guard !path.isEmpty, path != ":memory:" else { return nil }
        self.path = path
    }

    /// Called by the writer after each commit, on its queue: a copy beside it, or when
    /// the log has grown long, the end of the copy here and now.
    func committed(_ writer: Database) {
        guard let connection = connection(for: writer) else { return }
        if state.withLock({ $0.logIsLong }) {
            // Passive, from the writer between two commits: no frame is added meanwhile,
            // so once it has copied them all the next transaction starts the log over.
            if let log = try? writer.checkpoint(.passive), log.checkpointedFrameCount == log.walFrameCount {
                state.withLock { $0.logIsLong = false }
            }
            return
        }
        let start = state.withLock { state in
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        if start { copy(on: connection) }
    }

    /// The second connection, opened on the first commit, when the writer's automatic
    /// checkpoint is turned off: this one takes its place. nil (and SQLite's own
    /// checkpoint left on) when it cannot be opened.
    private func connection(for writer: Database) -> DatabaseQueue? {
        let (opened, unavailable) = state.withLock { ($0.connection, $0.unavailable) }
        if let opened { return opened }
        if unavailable { return nil }
        var configuration = Configuration()
        configuration.label = "checkpointer"
        configuration.busyMode = .immediateError
        guard let connection = try? DatabaseQueue(path: path, configuration: configuration),
              (try? writer.execute(sql: "PRAGMA wal_autocheckpoint = 0")) != nil
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
            let log = try? db.checkpoint(.passive)
            let again = self.state.withLock { state in
                if let log, log.walFrameCount >= Self.restartMark { state.logIsLong = true }
                defer { state.again = false }
                state.running = state.again
                return state.again
            }
            if again { self.copy(on: connection, after: started) }
        }
    }
}
