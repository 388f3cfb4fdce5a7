import GRDB
import OnboardService

/// The embedded mock's and `onboard-server`'s SQLite schema, one migration per version:
/// each says what it adds and why, and none is ever changed once shipped (a database
/// made by an older build migrates forward; PostgreSQL keeps the same versions in
/// `PostgresStore+Schema.swift`).
extension ServiceDatabase {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
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
        migrator.registerMigration("v2: signed access tokens, rotation families, accounts, outbox") { db in
            try db.execute(
                sql: """
                    DROP TABLE access_tokens;
                    CREATE TABLE service_keys (
                        name TEXT PRIMARY KEY,
                        secret BLOB NOT NULL
                    );
                    ALTER TABLE refresh_tokens ADD COLUMN family_id TEXT NOT NULL DEFAULT '';
                    ALTER TABLE refresh_tokens ADD COLUMN rotated_at INTEGER;
                    CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
                    ALTER TABLE users ADD COLUMN email TEXT;
                    ALTER TABLE users ADD COLUMN password_hash TEXT;
                    ALTER TABLE users ADD COLUMN name TEXT;
                    CREATE UNIQUE INDEX users_email ON users(email);
                    CREATE TABLE outbox (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL,
                        destination TEXT NOT NULL,
                        code TEXT NOT NULL,
                        created_at INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v3: phone codes, social identities, profiles, children, invites, records") { db in
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN phone TEXT;
                    CREATE UNIQUE INDEX users_phone ON users(phone);
                    ALTER TABLE users ADD COLUMN auth_provider TEXT;
                    ALTER TABLE users ADD COLUMN provider_subject TEXT;
                    CREATE UNIQUE INDEX users_provider ON users(auth_provider, provider_subject);
                    CREATE TABLE phone_codes (
                        phone TEXT PRIMARY KEY,
                        code_hash TEXT NOT NULL,
                        sent_at INTEGER NOT NULL,
                        expires_at INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE profiles (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        data TEXT NOT NULL,
                        updated_at INTEGER NOT NULL
                    );
                    CREATE TABLE children (
                        id TEXT PRIMARY KEY,
                        name TEXT NOT NULL,
                        birth_date TEXT,
                        created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at INTEGER NOT NULL
                    );
                    CREATE TABLE child_members (
                        child_id TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        granted_by TEXT,
                        PRIMARY KEY (child_id, user_id)
                    );
                    CREATE TABLE invites (
                        code_hash TEXT PRIMARY KEY,
                        child_id TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                        created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at INTEGER NOT NULL,
                        expires_at INTEGER NOT NULL,
                        used_at INTEGER,
                        used_by TEXT
                    );
                    CREATE TABLE records (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        value TEXT NOT NULL,
                        updated_at INTEGER NOT NULL,
                        PRIMARY KEY (user_id, key)
                    );
                    """)
        }
        migrator.registerMigration("v4: ID tokens accepted once") { db in
            try db.execute(
                sql: """
                    CREATE TABLE used_id_tokens (
                        token_id TEXT PRIMARY KEY,
                        expires_at INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v5: idempotency keys") { db in
            // id: SHA-256 of the key; sealed: the result, encrypted with a key derived
            // from the idempotency key (see Idempotency.swift); NULL while under way.
            try db.execute(
                sql: """
                    CREATE TABLE idempotency (
                        id TEXT PRIMARY KEY,
                        operation TEXT NOT NULL,
                        sealed BLOB,
                        created_at INTEGER NOT NULL
                    );
                    CREATE INDEX idempotency_created ON idempotency (created_at);
                    """)
        }
        migrator.registerMigration("v6: who holds an idempotency reservation") { db in
            // The pid of the process running the call: a repeat whose first try died with
            // its process (the mock inside a killed client, a killed server) takes over at
            // once instead of waiting out the reservation. The file is on this host.
            try db.execute(sql: "ALTER TABLE idempotency ADD COLUMN owner INTEGER")
        }
        migrator.registerMigration("v7: the request an idempotency key was used for") { db in
            // A keyed hash of the request (operation, body, caller, device proof): the same
            // key with another request is refused, never answered with this one's result.
            try db.execute(sql: "ALTER TABLE idempotency ADD COLUMN request_hash TEXT")
        }
        migrator.registerMigration("v8: QA settings every instance shares") { db in
            // `clock`: the offset `/dev/clock` set, in seconds.
            try db.execute(sql: "CREATE TABLE qa_settings (name TEXT PRIMARY KEY, value INTEGER NOT NULL)")
        }
        migrator.registerMigration("v9: device authorizations") { db in
            // RFC 8628: the device code only as its hash; status pending, approved, denied
            // or spent; the approving identity's email sealed like every other.
            try db.execute(
                sql: """
                    CREATE TABLE device_grants (
                        device_code_hash TEXT PRIMARY KEY,
                        user_code TEXT NOT NULL UNIQUE,
                        provider TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        expires_at INTEGER NOT NULL,
                        interval INTEGER NOT NULL,
                        polled_at INTEGER,
                        status TEXT NOT NULL DEFAULT 'pending',
                        subject TEXT,
                        email TEXT
                    );
                    CREATE INDEX device_grants_expiry ON device_grants (expires_at);
                    """)
        }
        migrator.registerMigration("v10: analytics events") { db in
            // One row per event the client recorded, unique on its id (a batch sent again
            // is stored once). What the funnel reads has columns of its own; the rest of the
            // properties stay as JSON. `occurred_at_ms` is the device's clock (durations
            // within one person's run); `received_at` the service's (retention).
            try db.execute(
                sql: """
                    CREATE TABLE analytics_events (
                        id TEXT PRIMARY KEY,
                        flow TEXT NOT NULL,
                        event TEXT NOT NULL,
                        screen TEXT,
                        screen_index INTEGER,
                        user_id TEXT NOT NULL,
                        anonymous_id TEXT NOT NULL,
                        occurred_at_ms INTEGER NOT NULL,
                        received_at INTEGER NOT NULL,
                        app_version TEXT NOT NULL,
                        error_code TEXT,
                        attempt_number INTEGER,
                        duration_ms INTEGER,
                        variant TEXT,
                        properties TEXT NOT NULL
                    );
                    CREATE INDEX analytics_events_funnel ON analytics_events (flow, occurred_at_ms);
                    CREATE INDEX analytics_events_person ON analytics_events (anonymous_id);
                    CREATE INDEX analytics_events_user ON analytics_events (user_id);
                    CREATE INDEX analytics_events_received ON analytics_events (received_at);
                    """)
        }
        migrator.registerMigration("v11: unique indexes hold only the values that are set") { db in
            // A guest has no email, phone, provider or chosen name yet, and SQLite indexes
            // NULLs too: four index pages written with every sign-in for nothing. Partial
            // indexes keep the same rules for the values that exist. `display_name` was a
            // column constraint, which only rebuilding the table removes (foreign keys are
            // off during migrations; the rename keeps every reference to `users`).
            try db.execute(
                sql: """
                    CREATE TABLE users_rebuilt (
                        id TEXT PRIMARY KEY,
                        created_at INTEGER NOT NULL,
                        is_anonymous INTEGER NOT NULL,
                        display_name TEXT,
                        onboarding_complete INTEGER NOT NULL DEFAULT 0,
                        email TEXT,
                        password_hash TEXT,
                        name TEXT,
                        phone TEXT,
                        auth_provider TEXT,
                        provider_subject TEXT
                    );
                    INSERT INTO users_rebuilt (rowid, id, created_at, is_anonymous, display_name, onboarding_complete, email, password_hash,
                                               name, phone, auth_provider, provider_subject)
                        SELECT rowid, id, created_at, is_anonymous, display_name, onboarding_complete, email, password_hash,
                               name, phone, auth_provider, provider_subject FROM users;
                    DROP TABLE users;
                    ALTER TABLE users_rebuilt RENAME TO users;
                    CREATE UNIQUE INDEX users_display_name ON users(display_name) WHERE display_name IS NOT NULL;
                    CREATE UNIQUE INDEX users_email ON users(email) WHERE email IS NOT NULL;
                    CREATE UNIQUE INDEX users_phone ON users(phone) WHERE phone IS NOT NULL;
                    CREATE UNIQUE INDEX users_provider ON users(auth_provider, provider_subject) WHERE provider_subject IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v12: lockouts that survive a restart") { db in
            // Failed log-ins were counted in the process's memory with the rate limits:
            // restarting the server gave every locked account its guesses back.
            try db.execute(
                sql: """
                    CREATE TABLE lockouts (key TEXT PRIMARY KEY, window_start INTEGER NOT NULL, count INTEGER NOT NULL);
                    CREATE INDEX lockouts_window ON lockouts (window_start);
                    """)
        }
        migrator.registerMigration("v13: where a device sign-in was asked from") { db in
            // Said on the page that confirms it, so a person sees whose terminal they sign in.
            try db.execute(sql: "ALTER TABLE device_grants ADD COLUMN requested_from TEXT")
        }
        migrator.registerMigration("v14: display names compared as people read them") { db in
            // The key of the name a user is shown by (`NameKey`: a look-alike of a taken
            // name is taken), filled in for the users there are.
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN display_key TEXT;
                    CREATE INDEX users_display_key ON users (display_key) WHERE display_key IS NOT NULL;
                    """)
            try rekeyDisplayNames(db)
        }
        migrator.registerMigration("v15: the arrival that starts a client's run") { db in
            // A funnel never counts the time between two launches as time on a screen.
            try db.execute(sql: "ALTER TABLE analytics_events ADD COLUMN starts_run INTEGER")
        }
        migrator.registerMigration("v16: display names compared in every case") { db in
            // `NameKey` now reads a name's upper case too (`ANNIE` was not `Annie`): every
            // key is made again.
            try rekeyDisplayNames(db)
        }
        return migrator
    }

    /// Each user's display key, from the name it is shown by (its display name, else its name).
    static func rekeyDisplayNames(_ db: Database) throws {
        let shown = try Row.fetchAll(
            db,
            sql:
                "SELECT id, unseal(display_name) AS display_name, unseal(name) AS name FROM users WHERE display_name IS NOT NULL OR name IS NOT NULL"
        )
        for row in shown {
            guard let name: String = row["display_name"] ?? row["name"] else { continue }
            try db.execute(
                sql: "UPDATE users SET display_key = seal_key(?) WHERE id = ?", arguments: [NameKey.of(name), row["id"] as String])
        }
    }
}

extension ServiceDatabase {
    /// The `ServiceSchema` version these migrations reach: the number of the last (`vN: …`).
    public static var schemaVersion: Int {
        let last = migrator.migrations.last ?? ""
        return Int(last.dropFirst().prefix { $0.isNumber }) ?? 0
    }
}
