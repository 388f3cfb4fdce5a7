import CoreMetrics
import PostgresNIO
import Synchronization

/// Deadlines on the pool, so a database that goes away mid-request is a prompt 503 and
/// never a request that hangs — one that hangs also holds up a graceful shutdown.
extension PostgresStore {
    /// How long a request waits for a connection. The pool itself would hold it until its
    /// circuit breaker trips (a minute), longer than any client waits.
    static let leaseDeadline: Duration = .seconds(5)
    /// How long a transaction may take once it has its connection. A query in flight when
    /// the database dies can stay unanswered for ever in PostgresNIO 1.33 (the socket is
    /// gone, the query's promise is never failed); past this, the caller is answered and
    /// the stuck work abandoned. It cannot commit any more: the connection is dead.
    static let answerDeadline: Duration = .seconds(10)

    /// Runs `work`, which starts by leasing a connection (it calls `lease.taken`).
    func leased<T: Sendable>(_ work: @escaping @Sendable (Lease) async throws -> T) async throws -> T {
        let lease = Lease()
        let answer = Answer<T>()
        PoolMetrics.waiting.increment()
        return try await withCheckedThrowingContinuation { continuation in
            answer.await(continuation)
            let timer = Task {
                try await Task.sleep(for: Self.leaseDeadline)
                // No connection yet: give up the lease (nothing ran).
                guard lease.isTaken else { answer.give(.failure(Self.databaseAway)); return }
                try await Task.sleep(for: Self.answerDeadline)
                answer.give(.failure(Self.databaseAway))
            }
            let worker = Task {
                let result: Result<T, any Error>
                do { result = .success(try await work(lease)) } catch { result = .failure(error) }
                (lease.isTaken ? PoolMetrics.inUse : PoolMetrics.waiting).decrement()
                timer.cancel()
                answer.give(result)
            }
            answer.onGiven { if !lease.isTaken { worker.cancel() } }
        }
    }

    /// Whether the work got its connection.
    final class Lease: Sendable {
        private let flag = Atomic<Bool>(false)
        func taken() {
            flag.store(true, ordering: .releasing)
            PoolMetrics.waiting.decrement()
            PoolMetrics.inUse.increment()
        }
        var isTaken: Bool { flag.load(ordering: .acquiring) }
    }

    /// The pool as an operator's Prometheus sees it: requests holding a connection, and
    /// requests waiting for one (the first sign of a database too slow or too small).
    enum PoolMetrics {
        static let inUse = Meter(label: "onboard_store_connections_in_use")
        static let waiting = Meter(label: "onboard_store_requests_waiting")
    }

    /// The first of the work's result and a deadline, given once.
    final class Answer<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var given = false
            var afterwards: (@Sendable () -> Void)?
        }
        private let state = Mutex(State())

        func await(_ continuation: CheckedContinuation<T, any Error>) {
            state.withLock { $0.continuation = continuation }
        }

        func give(_ result: Result<T, any Error>) {
            let (continuation, afterwards) = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
                guard !state.given else { return (nil, nil) }
                state.given = true
                defer { state.continuation = nil }
                return (state.continuation, state.afterwards)
            }
            continuation?.resume(with: result)
            afterwards?()
        }

        /// Runs once the answer is given (at once when it already was).
        func onGiven(_ action: @escaping @Sendable () -> Void) {
            let given = state.withLock { state in
                if !state.given { state.afterwards = action }
                return state.given
            }
            if given { action() }
        }
    }
}
