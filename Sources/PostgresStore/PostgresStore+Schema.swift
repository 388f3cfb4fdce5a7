import Foundation
import OnboardService
import PostgresNIO
import ServiceAPI

extension PostgresStore {
    /// The advisory lock migrations take: instances started together migrate once.
    static let migrationLock: Int64 = 0x6F6E_626F_6172_64  // "onboard"

    /// Brings the schema up to date in one transaction under `pg_advisory_xact_lock`.
    public func migrate() async throws {
        try await transaction { db in
            try await db.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: self.logger)
            try await db.query(
                "CREATE TABLE IF NOT EXISTS onboard_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)",
                logger: self.logger)
            var applied: Set<Int32> = []
            for try await version in try await db.query("SELECT version FROM onboard_migrations", logger: self.logger).decode(Int32.self) {
                applied.insert(version)
            }
            for (version, migration) in Self.migrations.enumerated() where !applied.contains(Int32(version + 1)) {
                for statement in migration.statements { try await db.query(PostgresQuery(unsafeSQL: statement), logger: self.logger) }
                let now = Int64(Date().timeIntervalSince1970)
                try await db.query(
                    "INSERT INTO onboard_migrations (version, applied_at) VALUES (\(Int32(version + 1)), \(now))", logger: self.logger)
            }
            try await Self.fillDisplayKeys(db, self.logger)
        }
        serving.store(true, ordering: .relaxed)
    }

    /// Users from before display keys: each one's key, from the name it is shown by.
    static func fillDisplayKeys(_ db: PostgresConnection, _ logger: Logger) async throws {
        var missing: [(String, String)] = []
        let rows = try await db.query(
            "SELECT id, COALESCE(display_name, name) FROM users WHERE display_key IS NULL AND COALESCE(display_name, name) IS NOT NULL",
            logger: logger)
        for try await (id, name) in rows.decode((String, String).self) { missing.append((id, name)) }
        for (id, name) in missing {
            try await db.query("UPDATE users SET display_key = \(NameKey.of(name)) WHERE id = \(id)", logger: logger)
        }
    }

    /// The schema, one list of statements per version (`onboard_migrations` numbers them
    /// in this order). Times are integer epochs (seconds) from Swift, as in SQLite; flags
    /// are booleans.
    static let migrations: [SchemaMigration] = [
        SchemaMigration(
            schema: 5,
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY, created_at BIGINT NOT NULL, is_anonymous BOOLEAN NOT NULL,
                    display_name TEXT UNIQUE, onboarding_complete BOOLEAN NOT NULL DEFAULT FALSE,
                    email TEXT UNIQUE, password_hash TEXT, name TEXT, phone TEXT UNIQUE,
                    auth_provider TEXT, provider_subject TEXT, UNIQUE (auth_provider, provider_subject))
                """,
                "CREATE TABLE name_offers (name TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, offered_at BIGINT NOT NULL)",
                "CREATE TABLE service_keys (name TEXT PRIMARY KEY, secret BYTEA NOT NULL)",
                """
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    family_id TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT,
                    access_lifetime BIGINT NOT NULL, refresh_lifetime BIGINT, revoked_at BIGINT, rotated_at BIGINT)
                """,
                "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)",
                "CREATE TABLE outbox (id BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, destination TEXT NOT NULL, code TEXT NOT NULL, created_at BIGINT NOT NULL)",
                "CREATE TABLE phone_codes (phone TEXT PRIMARY KEY, code_hash TEXT NOT NULL, sent_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0)",
                "CREATE TABLE profiles (user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE, data TEXT NOT NULL, updated_at BIGINT NOT NULL)",
                """
                CREATE TABLE children (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, birth_date TEXT,
                    created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE child_members (
                    child_id TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, granted_by TEXT, PRIMARY KEY (child_id, user_id))
                """,
                """
                CREATE TABLE invites (
                    code_hash TEXT PRIMARY KEY, child_id TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                    created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL, used_at BIGINT, used_by TEXT)
                """,
                """
                CREATE TABLE records (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, key TEXT NOT NULL, value TEXT NOT NULL,
                    updated_at BIGINT NOT NULL, PRIMARY KEY (user_id, key))
                """,
                "CREATE TABLE used_id_tokens (token_id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
                "CREATE TABLE idempotency (id TEXT PRIMARY KEY, operation TEXT NOT NULL, sealed BYTEA, created_at BIGINT NOT NULL)",
                "CREATE INDEX idempotency_created ON idempotency (created_at)",
                "CREATE TABLE rate_limits (key TEXT PRIMARY KEY, window_start BIGINT NOT NULL, count INTEGER NOT NULL)",
            ]),
        SchemaMigration(
            schema: 7,
            [
                // The order names were offered in (SQLite's rowid): a repeat of the sign-in and
                // a profile read offer them as the first answer did.
                "ALTER TABLE name_offers ADD COLUMN offered_order BIGSERIAL",
                // A keyed hash of the request an idempotency key was used for (see SQLite's v7).
                "ALTER TABLE idempotency ADD COLUMN request_hash TEXT",
            ]),
        SchemaMigration(
            schema: 8,
            [
                // QA settings every instance shares (`clock`: `/dev/clock`'s offset, seconds).
                "CREATE TABLE qa_settings (name TEXT PRIMARY KEY, value BIGINT NOT NULL)"
            ]),
        SchemaMigration(
            schema: 9,
            [
                // RFC 8628's grants (see SQLite's v9).
                """
                CREATE TABLE device_grants (
                    device_code_hash TEXT PRIMARY KEY, user_code TEXT NOT NULL UNIQUE, provider TEXT NOT NULL,
                    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, interval BIGINT NOT NULL, polled_at BIGINT,
                    status TEXT NOT NULL DEFAULT 'pending', subject TEXT, email TEXT)
                """,
                "CREATE INDEX device_grants_expiry ON device_grants (expires_at)",
            ]),
        SchemaMigration(
            schema: 10,
            [
                // Analytics events (see SQLite's v10).
                """
                CREATE TABLE analytics_events (
                    id TEXT PRIMARY KEY, flow TEXT NOT NULL, event TEXT NOT NULL, screen TEXT, screen_index INTEGER,
                    user_id TEXT NOT NULL, anonymous_id TEXT NOT NULL, occurred_at_ms BIGINT NOT NULL, received_at BIGINT NOT NULL,
                    app_version TEXT NOT NULL, error_code TEXT, attempt_number INTEGER, duration_ms BIGINT, variant TEXT,
                    properties TEXT NOT NULL)
                """,
                "CREATE INDEX analytics_events_funnel ON analytics_events (flow, occurred_at_ms)",
                "CREATE INDEX analytics_events_person ON analytics_events (anonymous_id)",
                "CREATE INDEX analytics_events_user ON analytics_events (user_id)",
                "CREATE INDEX analytics_events_received ON analytics_events (received_at)",
            ]),
        SchemaMigration(
            schema: 10,
            [
                // Rate-limit counts need no durability (a crash may only let a few more requests
                // through) and must not wait for the disk: see `hitRateLimit`.
                "ALTER TABLE rate_limits SET UNLOGGED"
            ]),
        SchemaMigration(
            schema: 11,
            [
                // Unique indexes over the values that are set (see SQLite's v11): a guest has
                // no email, phone, provider or chosen name, and each NULL was an index entry.
                """
                ALTER TABLE users DROP CONSTRAINT users_display_name_key, DROP CONSTRAINT users_email_key,
                    DROP CONSTRAINT users_phone_key, DROP CONSTRAINT users_auth_provider_provider_subject_key
                """,
                "CREATE UNIQUE INDEX users_display_name ON users (display_name) WHERE display_name IS NOT NULL",
                "CREATE UNIQUE INDEX users_email ON users (email) WHERE email IS NOT NULL",
                "CREATE UNIQUE INDEX users_phone ON users (phone) WHERE phone IS NOT NULL",
                "CREATE UNIQUE INDEX users_provider ON users (auth_provider, provider_subject) WHERE provider_subject IS NOT NULL",
            ]),
        SchemaMigration(
            schema: 12,
            [
                // Failed log-ins, counted apart from the rate limits in a logged table: an
                // unlogged one is emptied by crash recovery, and a replica never has it.
                "CREATE TABLE lockouts (key TEXT PRIMARY KEY, window_start BIGINT NOT NULL, count INTEGER NOT NULL)",
                "CREATE INDEX lockouts_window ON lockouts (window_start)",
            ]),
        SchemaMigration(
            schema: 13,
            [
                // Where a device sign-in was asked from, said on the page that confirms it.
                "ALTER TABLE device_grants ADD COLUMN requested_from TEXT"
            ]),
        SchemaMigration(
            schema: 14,
            [
                // The key of the name a user is shown by (`NameKey`); filled in for the users
                // there are by `fillDisplayKeys` after migrating (SQL cannot take a skeleton).
                "ALTER TABLE users ADD COLUMN display_key TEXT",
                "CREATE INDEX users_display_key ON users (display_key) WHERE display_key IS NOT NULL",
            ]),
        SchemaMigration(
            schema: 15,
            [
                // The arrival that starts a client's run: a funnel never counts the time
                // between two launches as time on a screen.
                "ALTER TABLE analytics_events ADD COLUMN starts_run BOOLEAN"
            ]),
        SchemaMigration(
            schema: 16,
            [
                // `NameKey` now reads a name's upper case too (`ANNIE` was not `Annie`): every
                // key is made again by `fillDisplayKeys`, after migrating.
                "UPDATE users SET display_key = NULL"
            ]),
    ]
}

/// One version of PostgreSQL's schema: its statements, and the `ServiceSchema` version
/// (SQLite's migration of the same number) it brings the database to.
struct SchemaMigration: Sendable {
    var schema: Int
    var statements: [String]

    init(schema: Int, _ statements: [String]) {
        self.schema = schema
        self.statements = statements
    }
}

extension PostgresStore {
    /// The `ServiceSchema` version this store's migrations reach.
    public static var schemaVersion: Int { migrations.last?.schema ?? 0 }
}
