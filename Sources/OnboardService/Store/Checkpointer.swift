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
/// pages, the writer itself, between two commits, copies the little that is left (after
/// waiting for the copy under way) and the next commit starts the log over.
final class Checkpointer: Sendable {
    /// Pages of log after which the writer finishes the copy (SQLite's automatic
    /// checkpoint runs every 1,000).
    static let restartMark = 4_000
    /// The least time between two copies: each ends in an fsync, and a copy of a few
    /// pages costs nearly what one of a thousand does.
    static let interval = Duration.milliseconds(20)

    private struct State {
        var running = false
        var again = false
        var logIsLong = false
    }

    private let connection: DatabaseQueue
    private let state = Mutex(State())

    /// A second connection to the writer's database file; nil for a database in memory.
    /// The writer's automatic checkpoint is turned off: this one takes its place.
    init?(beside writer: DatabaseQueue) throws {
        let path = writer.path
        guard !path.isEmpty, path != ":memory:" else { return nil }
        var configuration = Configuration()
        configuration.label = "checkpointer"
        configuration.busyMode = .immediateError
        connection = try DatabaseQueue(path: path, configuration: configuration)
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
    }

    /// Called by the writer after each commit, on its queue: a copy beside it, or when
    /// the log has grown long, the end of the copy here and now.
    func committed(_ writer: Database) {
        let finishHere = state.withLock { state in
            defer { state.logIsLong = false }
            return state.logIsLong
        }
        if finishHere {
            // FULL waits (the writer's busy timeout) for a copy under way, copies what is
            // left and syncs the file; the writer's next transaction then starts the log over.
            _ = try? writer.checkpoint(.full)
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
        if start { copy() }
    }

    private func copy(after previous: ContinuousClock.Instant? = nil) {
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
            if again { self.copy(after: started) }
        }
    }
}
