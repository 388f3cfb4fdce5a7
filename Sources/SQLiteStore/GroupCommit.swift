import GRDB
import Synchronization

/// Group commit for SQLite's single writer: the writes that arrive while one transaction
/// commits share the next one, each in a savepoint of its own.
///
/// What it is for: a small write's time is mostly its commit (the log's pages written,
/// the lock, the checkpoint check). Writes that share a commit pay it once; under many
/// sign-ins at once that is most of the store's throughput (measured: DECISIONS 42).
///
/// States, per batch: **idle** (no write waiting, nothing scheduled) → **waiting** (a
/// write arrived; one batch is scheduled on the writer's queue) → **committing** (the
/// batch runs every waiting write in its savepoint, then commits) → back to waiting when
/// writes came meanwhile, else idle. Reads are not batched: they run between batches on
/// the same queue.
///
/// Guarantees: a write's caller hears back only after its batch committed, so what it was
/// told is on disk is on disk. A write that throws is rolled back to its savepoint and
/// the others go on; an error that ends the whole transaction (a full disk, a lost lock)
/// fails every write in it, as it would have failed each alone.
///
/// Without it: every write is its own transaction, and sign-ins queue behind each
/// other's commits.
final class GroupCommit: Sendable {
    /// One write of a batch: `run` does it in its savepoint and gives back how to answer
    /// its caller once the batch has committed or failed; `fail` answers a write the
    /// batch never reached.
    private struct Write: Sendable {
        let run: @Sendable (Database) -> Answer
        let fail: @Sendable (any Error) -> Void
    }
    private typealias Answer = @Sendable (_ commitFailure: (any Error)?) -> Void

    private struct Waiting {
        var writes: [Write] = []
        var scheduled = false
    }

    private let queue: DatabaseQueue
    private let waiting = Mutex(Waiting())
    private let checkpointer: Checkpointer?

    init(_ queue: DatabaseQueue, checkpointer: Checkpointer? = nil) {
        self.queue = queue
        self.checkpointer = checkpointer
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let run: @Sendable (Database) -> Answer = { db in
                let result = Result<T, any Error> {
                    var value: T?
                    try db.inSavepoint {
                        value = try body(db)
                        return .commit
                    }
                    // `inSavepoint` returns only once `body` has returned, so this holds.
                    guard let value else {
                        throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "A write's savepoint ended without it.")
                    }
                    return value
                }
                return { commitFailure in
                    if case .success = result, let commitFailure {
                        continuation.resume(throwing: commitFailure)
                    } else {
                        continuation.resume(with: result)
                    }
                }
            }
            enqueue(Write(run: run, fail: { continuation.resume(throwing: $0) }))
        }
    }

    /// Writes waiting for the next batch (for tests that make a batch on purpose).
    var waitingCount: Int { waiting.withLock { $0.writes.count } }

    private func enqueue(_ write: Write) {
        let schedule = waiting.withLock { waiting in
            waiting.writes.append(write)
            defer { waiting.scheduled = true }
            return !waiting.scheduled
        }
        if schedule { scheduleBatch() }
    }

    /// One batch on the writer's queue; the next, if writes came meanwhile, queued behind
    /// whatever reads are waiting.
    private func scheduleBatch() {
        queue.asyncWriteWithoutTransaction { db in
            let writes = self.waiting.withLock { waiting in
                defer { waiting.writes = [] }
                return waiting.writes
            }
            Self.commit(writes, in: db)
            self.checkpointer?.committed(db)
            let more = self.waiting.withLock { waiting in
                if waiting.writes.isEmpty { waiting.scheduled = false }
                return waiting.scheduled
            }
            if more { self.scheduleBatch() }
        }
    }

    private static func commit(_ writes: [Write], in db: Database) {
        var answers: [Answer] = []
        do {
            try db.inTransaction {
                for write in writes {
                    answers.append(write.run(db))
                    // SQLite rolled the whole transaction back (a full disk, an I/O
                    // error): what ran before is gone, what comes after has nowhere to run.
                    guard db.isInsideTransaction else {
                        throw DatabaseError(resultCode: .SQLITE_ABORT, message: "The transaction was rolled back.")
                    }
                }
                return .commit
            }
            for answer in answers { answer(nil) }
        } catch {
            for answer in answers { answer(error) }
            // Writes that never ran share the failure of the transaction they were in.
            for write in writes.dropFirst(answers.count) { write.fail(error) }
        }
    }
}
