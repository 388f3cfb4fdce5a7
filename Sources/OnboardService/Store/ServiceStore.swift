/// Where the service keeps what it knows: one store per aggregate, composed as Ory
/// Kratos' `Persister` composes its per-domain persisters. Each operation is atomic
/// (one transaction), safe when several processes (terminals sharing the mock's file,
/// server instances sharing a database) run it at once. The domain decides and builds
/// (`Profile(_:)`, `NameReservation`, `ProfileChange`, `InviteAcceptance(_:)`); the store
/// keeps and reads rows. SQLite (`SQLiteStore`, the embedded mock and a single server) and
/// PostgreSQL (`PostgresStore`, several server instances) each implement every aggregate
/// in a file named for it (`SQLiteStore+Profiles.swift` opposite
/// `PostgresStore+Profiles.swift`), and `StoreConformanceTests` hold both to one behaviour.
///
/// Why operations and not a query layer: SQLite relies on its single writer where another
/// database needs `SELECT … FOR UPDATE` or a conditional `UPDATE … RETURNING`; each store
/// says how it makes its operation atomic.
public protocol ServiceStore:
    AccountStore, RefreshTokenStore, PhoneCodeStore, DeviceGrantStore, ProfileStore, FamilyStore, IdempotencyStore,
    RateLimitStore, AnalyticsStore, QAStore
{
    /// A secret kept in the store: the first process to ask stores `fresh`, every later
    /// one gets what was stored.
    func storedKey(named name: String, fresh: [UInt8]) async throws -> [UInt8]
    /// Answers when the store does (one trivial query): what `/readyz` asks.
    func ping() async throws
}
