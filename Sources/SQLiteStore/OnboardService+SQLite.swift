import GRDB
import Logging
import OnboardService
import ServiceAPI

/// The service over one SQLite file: the embedded mock, or a single `onboard-server`.
extension OnboardService {
    public convenience init(
        database: DatabaseQueue, clock: any ServiceClock = SystemClock(), settings: ServiceSettings = ServiceSettings(),
        securityLog: Logger = OnboardService.silent
    ) throws {
        try self.init(
            store: SQLiteStore(database), keys: ServiceDatabase.keys(in: database), clock: clock, settings: settings,
            securityLog: securityLog)
    }

    /// The outbox now, without waiting: the QA console reads it from the UI thread, and
    /// only the embedded mock (always SQLite) can answer so.
    public func outboxSnapshot() -> [OutboxEntry] {
        (store as? SQLiteStore)?.outboxSnapshot() ?? []
    }

    /// The outbox read straight from a service database (`onboard outbox` on the mock).
    public static func outbox(in db: Database) throws -> [OutboxEntry] {
        try SQLiteStore.outbox(in: db)
    }
}
