import CoreMetrics
import Foundation
import Logging
import OnboardService
import PostgresNIO
import ServiceAPI
import Synchronization

/// The service's store in PostgreSQL, shared by any number of `onboard-server` instances:
/// each operation is one transaction that is atomic across instances by its own means —
/// a conditional `UPDATE … RETURNING`, `INSERT … ON CONFLICT`, or `SELECT … FOR UPDATE`
/// where SQLite relied on its single writer — and rate limits are counted in the
/// database, so a client spreading requests over instances meets the same limit.
public final class PostgresStore: ServiceStore {
    public let client: PostgresClient
    let logger: Logger
    /// Since when the database has been away, if it is: its loss and its return are each
    /// said once in the log, as security events an operator looks for.
    private let awaySince = Mutex<ContinuousClock.Instant?>(nil)
    /// Set once migrated: a database not there at start-up was never lost (start-up says
    /// so in one line and exits).
    let serving = Atomic<Bool>(false)
    let plans: PlanLifetime

    /// `planLifetime`: how long a connection keeps the plans it cached (see `PlanLifetime`).
    public init(client: PostgresClient, logger: Logger = Logger(label: "onboard-postgres"), planLifetime: Duration = .seconds(1)) {
        self.client = client
        self.logger = logger
        self.plans = PlanLifetime(planLifetime)
    }

    /// One transaction; a database out of reach is `network` (503 with Retry-After: the
    /// instance serves again by itself once it is back), any other failure a server error.
    /// `onUniqueViolation`: the answer when a unique index refused the write (two
    /// instances racing for one email or display name).
    @discardableResult
    func transaction<T: Sendable>(
        onUniqueViolation: T? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await answered(onUniqueViolation: onUniqueViolation) { lease in
            try await self.client.withTransaction(logger: self.logger) { connection in
                lease.taken()
                try await self.plans.refresh(connection, logger: self.logger)
                return try await body(connection)
            }
        }
    }

    /// Work one statement decides, sent on its own: PostgreSQL makes each statement a
    /// transaction, so this is one round trip where BEGIN and COMMIT would add two.
    @discardableResult
    func statement<T: Sendable>(
        onUniqueViolation: T? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await answered(onUniqueViolation: onUniqueViolation) { lease in
            try await self.client.withConnection { connection in
                lease.taken()
                try await self.plans.refresh(connection, logger: self.logger)
                return try await body(connection)
            }
        }
    }

    /// Runs work on a leased connection, its failure said as the service says it.
    private func answered<T: Sendable>(
        onUniqueViolation: T?, _ work: @escaping @Sendable (Lease) async throws -> T
    ) async throws -> T {
        do {
            let result = try await leased(work)
            noteDatabase(away: false)
            return result
        } catch {
            let cause = Self.cause(of: error)
            if let cause = cause as? ServiceError {
                // The pool's deadline gives up on a database that went away this way.
                if cause == Self.databaseAway {
                    noteDatabase(away: true)
                    Self.errors(.unavailable).increment()
                }
                throw cause
            }
            if let answer = onUniqueViolation, Self.isUniqueViolation(cause) { return answer }
            if Self.isAway(cause) {
                noteDatabase(away: true)
                Self.errors(.unavailable).increment()
                throw Self.databaseAway
            }
            Self.errors(.failed).increment()
            throw ServiceError.databaseFailed(String(reflecting: cause))
        }
    }

    /// `onboard_store_errors_total{kind}`: the database out of reach, or a query that failed.
    enum ErrorKind: String { case unavailable, failed }
    static func errors(_ kind: ErrorKind) -> Counter {
        Counter(label: "onboard_store_errors_total", dimensions: [("kind", kind.rawValue)])
    }

    /// A database going down flaps for a moment (a transaction or two still gets through):
    /// it is back once it answers a second or more after it was lost.
    private func noteDatabase(away: Bool) {
        guard serving.load(ordering: .relaxed) else { return }
        let now = ContinuousClock.now
        let change: Bool = awaySince.withLock { since in
            if away, since == nil { since = now; return true }
            if !away, let lost = since, now - lost >= .seconds(1) { since = nil; return true }
            return false
        }
        guard change else { return }
        if away {
            logger.warning("security", metadata: ["event": "database_lost", "outcome": "answering 503 until it is back"])
        } else {
            logger.notice("security", metadata: ["event": "database_back", "outcome": "serving again"])
        }
    }

    /// What went wrong inside `withTransaction`, which wraps every error of the body,
    /// BEGIN, COMMIT or ROLLBACK in a `PostgresTransactionError`.
    static func cause(of error: any Error) -> any Error {
        guard let wrapped = error as? PostgresTransactionError else { return error }
        return wrapped.closureError ?? wrapped.beginError ?? wrapped.commitError ?? wrapped.rollbackError ?? error
    }

    /// The database cannot be reached: the connection was lost, or the pool gave up
    /// waiting for one (its error type is not public API, so it is told by name).
    static func isAway(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return String(reflecting: type(of: error)).contains("ConnectionPoolError") }
        let lost: [PSQLError.Code] = [.connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown]
        // 08…: connection exceptions; 57P…: the server shutting down or restarting.
        let state = error.serverInfo?[.sqlState] ?? ""
        return lost.contains(error.code) || state.hasPrefix("08") || state.hasPrefix("57P")
    }

    static let databaseAway = ServiceError(.network, "The service's database cannot be reached; try again shortly.", retryAfter: 2)

    static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == PostgresError.Code.uniqueViolation.raw
    }

    // MARK: Keys

    public func storedKey(named name: String, fresh: [UInt8]) async throws -> [UInt8] {
        try await transaction { db in
            try await db.query(
                "INSERT INTO service_keys (name, secret) VALUES (\(name), \(Data(fresh))) ON CONFLICT DO NOTHING", logger: self.logger)
            let stored = try await db.first("SELECT secret FROM service_keys WHERE name = \(name)", as: Data.self, logger: self.logger)
            return [UInt8](stored ?? Data(fresh))
        }
    }
}

extension PostgresStore {
    /// A code in clear for QA's outbox, in the transaction that stored its hash.
    static func recordOutbox(_ entry: OutboxEntry?, _ db: PostgresConnection, _ logger: Logger) async throws {
        guard let entry else { return }
        try await db.query(
            "INSERT INTO outbox (kind, destination, code, created_at) VALUES (\(entry.kind), \(entry.destination), \(entry.code), \(entry.createdAt))",
            logger: logger)
    }
}
