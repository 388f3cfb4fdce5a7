import Logging
import PostgresNIO
import Synchronization

/// How long a connection's cached plans may live. After five calls of a prepared statement
/// PostgreSQL may settle on a generic plan, made from the table sizes it sees at the time.
/// It keeps that plan until something invalidates it, such as autovacuum's next ANALYZE.
/// A plan made while a table held a page (a sequential scan, a hash join over one) would
/// stay while the table grows by thousands of rows a second: a fresh server under load.
/// Each connection lets go of its plans once they are `lifetime` old, so the next call
/// plans again from the sizes of now; in between, no call pays for planning
/// (DECISIONS 43).
final class PlanLifetime: Sendable {
    let lifetime: Duration
    /// When each connection last let go of its plans.
    private let discardedAt = Mutex<[PostgresConnection.ID: ContinuousClock.Instant]>([:])

    init(_ lifetime: Duration) {
        self.lifetime = lifetime
    }

    /// Lets go of `connection`'s plans when they may be older than `lifetime`. A connection
    /// first seen here may hold plans of any age, so it lets go of them too.
    func refresh(_ connection: PostgresConnection, logger: Logger) async throws {
        let now = ContinuousClock.now
        let due: Bool = discardedAt.withLock { discardedAt in
            if let last = discardedAt[connection.id], now - last < lifetime { return false }
            discardedAt[connection.id] = now
            // Closed connections' entries go; one still open and forgotten here is only
            // treated as new, which is safe.
            discardedAt = discardedAt.filter { now - $0.value < lifetime * 10 }
            return true
        }
        if due { try await connection.query("DISCARD PLANS", logger: logger) }
    }
}
