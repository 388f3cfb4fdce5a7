import GRDB
import OnboardService
import PostgresStore
@testable import SQLiteStore
import TestSupport
import Testing

/// Schema 16: `NameKey` reads a name's upper case too, so the keys of names already kept
/// are made again; a database from before the change refuses `ANNIE` beside `Annie` once
/// migrated, on both stores.
@Suite struct DisplayKeyMigrationTests {
    @Test func sqliteMakesEveryDisplayKeyAgain() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in ColumnSealer.registerPassThrough(in: db) }
        let queue = try DatabaseQueue(path: temporaryPath("before-16.sqlite"), configuration: configuration)
        try ServiceDatabase.migrator.migrate(queue, upTo: "v15: the arrival that starts a client's run")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, created_at, is_anonymous, display_name, display_key) VALUES ('annie', 1, 0, 'Annie', 'annie');
                    INSERT INTO users (id, created_at, is_anonymous, name, display_key) VALUES ('iris', 2, 0, 'Iris', 'iris');
                    """)
        }
        try ServiceDatabase.migrator.migrate(queue)
        let keys = try queue.read { db in try String.fetchAll(db, sql: "SELECT display_key FROM users ORDER BY created_at") }
        #expect(keys == [NameKey.of("ANNIE"), NameKey.of("IRIS")])
    }

    @Test func postgresMakesEveryDisplayKeyAgain() async throws {
        let server = try await ThrowawayPostgres.sharedServer()
        let database = try await offThePool { try server.newDatabaseName() }
        let store = try await PostgresSubject.store(url: server.url(database))
        let made = try await store.createAccount(
            "annie", at: 1, email: "annie@example.org", passwordHash: "h", name: "Annie", token: refreshToken(for: "annie", policy: .named))
        #expect(made)
        // As a database migrated before schema 16 holds it: the old key, the last version not applied.
        _ = try await offThePool {
            try server.query("UPDATE users SET display_key = 'annie'; DELETE FROM onboard_migrations WHERE version = 12", in: database)
        }
        try await store.migrate()
        #expect(try await offThePool { try server.query("SELECT display_key FROM users", in: database) } == NameKey.of("ANNIE"))
    }
}
