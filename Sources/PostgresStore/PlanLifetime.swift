import Logging
import PostgresNIO
import Synchronization

/// How long a connection's cached plans may live.
///
/// What it is for: after five calls of a prepared statement, PostgreSQL may settle on a
/// generic plan made from the table sizes it sees then, and keep it until something
/// invalidates it (autovacuum's next ANALYZE). A plan made while a table held one page (a
/// sequential scan, a hash join) stays while the table grows by thousands of rows a
/// second: a fresh server under load slows down by the minute (DECISIONS 43).
///
/// States, per connection: **unseen** (its plans may be of any age: let go on first use)
/// → **fresh** (let go less than `lifetime` ago: calls use the cached plans, no call pays
/// for planning) → **due** (`lifetime` passed: the next call sends `DISCARD PLANS` first
/// and the connection is fresh again). Entries of connections gone for ten lifetimes
/// are forgotten; a forgotten one still open is only treated as unseen, which is safe.
///
/// Without it: a server started on an empty database keeps the plans of an empty table.
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
