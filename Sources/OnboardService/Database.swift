import GRDB

/// Opens the service's SQLite file and brings its schema up to date.
public enum ServiceDatabase {
    public typealias Queue = DatabaseQueue

    public static func open(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        // Two terminals may share one mock backend: wait for the other's write lock.
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try migrator.migrate(queue)
        return queue
    }

    public static func inMemory() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try migrator.migrate(queue)
        return queue
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    created_at INTEGER NOT NULL,
                    is_anonymous INTEGER NOT NULL,
                    display_name TEXT UNIQUE,
                    onboarding_complete INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE name_offers (
                    name TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    offered_at INTEGER NOT NULL
                );
                CREATE TABLE access_tokens (
                    token_hash TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    expires_at INTEGER NOT NULL
                );
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER,
                    access_lifetime INTEGER NOT NULL,
                    refresh_lifetime INTEGER,
                    revoked_at INTEGER
                );
                """)
        }
        return migrator
    }
}
