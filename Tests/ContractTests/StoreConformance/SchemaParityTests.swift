import GRDB
import OnboardService
import PostgresStore
import SQLiteStore
import TestSupport
import Testing

/// Both stores' migrations reach the same `ServiceSchema` version and make the same
/// tables, columns, primary keys, unique constraints and indexes there (compared by what
/// they hold, not by name: SQLite and PostgreSQL name their constraints' indexes their
/// own way). The few differences each store needs are listed with why, so a migration
/// written for one store and not the other fails here.
@Suite("Schema parity")
struct SchemaParityTests {
    /// What one database holds: `table.column`, `table(columns)` for primary keys, and
    /// `table(columns) unique partial` for every other index.
    struct Shape: Equatable {
        var columns: Set<String> = []
        var primaryKeys: Set<String> = []
        var indexes: Set<String> = []
    }

    /// Differences by design. SQLite counts rate limits in its process's memory, where
    /// PostgreSQL shares them between instances in a table; SQLite's rowid orders the names
    /// offered, where PostgreSQL needs a column; an SQLite file's idempotency claim names
    /// the process holding it (processes sharing a file die apart), where PostgreSQL's
    /// instances take an abandoned claim over by its age alone.
    static let onlyInPostgreSQL = Shape(
        columns: ["rate_limits.key", "rate_limits.window_start", "rate_limits.count", "name_offers.offered_order"],
        primaryKeys: ["rate_limits(key)"])
    static let onlyInSQLite = Shape(columns: ["idempotency.owner"])

    @Test func bothStoresReachTheSameSchemaVersion() {
        #expect(ServiceDatabase.schemaVersion == ServiceSchema.version)
        #expect(PostgresStore.schemaVersion == ServiceSchema.version)
    }

    @Test func bothStoresMakeTheSameTablesColumnsKeysAndIndexes() async throws {
        let sqlite = try Self.shape(of: ServiceDatabase.open(path: temporaryPath("parity.sqlite")))
        let postgres = try await Self.postgresShape()
        #expect(postgres.columns.subtracting(sqlite.columns) == Self.onlyInPostgreSQL.columns)
        #expect(sqlite.columns.subtracting(postgres.columns) == Self.onlyInSQLite.columns)
        #expect(postgres.primaryKeys.subtracting(sqlite.primaryKeys) == Self.onlyInPostgreSQL.primaryKeys)
        #expect(sqlite.primaryKeys.subtracting(postgres.primaryKeys) == Self.onlyInSQLite.primaryKeys)
        #expect(postgres.indexes.subtracting(sqlite.indexes) == Self.onlyInPostgreSQL.indexes)
        #expect(sqlite.indexes.subtracting(postgres.indexes) == Self.onlyInSQLite.indexes)
        #expect(!sqlite.indexes.isEmpty && !sqlite.columns.isEmpty)
    }

    static func shape(of queue: DatabaseQueue) throws -> Shape {
        try queue.read { db in
            var shape = Shape()
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'")
            for table in tables {
                var key: [(Int, String)] = []
                for row in try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_info(?)", arguments: [table]) {
                    let column: String = row["name"]
                    shape.columns.insert("\(table).\(column)")
                    if let position: Int = row["pk"], position > 0 { key.append((position, column)) }
                }
                if !key.isEmpty { shape.primaryKeys.insert("\(table)(\(key.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ",")))") }
                for index in try Row.fetchAll(
                    db, sql: "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", arguments: [table])
                {
                    guard index["origin"] as String != "pk" else { continue }
                    let columns = try String.fetchAll(
                        db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index["name"] as String])
                    shape.indexes.insert(describe(table, columns, unique: index["unique"], partial: index["partial"]))
                }
            }
            return shape
        }
    }

    static func postgresShape() async throws -> Shape {
        let server = try await ThrowawayPostgres.sharedServer()
        let database = try await offThePool { try server.newDatabaseName() }
        _ = try await PostgresSubject.store(url: server.url(database))
        let rows = { (sql: String) in
            try await offThePool {
                try server.query(sql, in: database).split(separator: "\n").map {
                    $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                }
            }
        }
        var shape = Shape()
        for row in try await rows(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'onboard_migrations'"
        ) {
            shape.columns.insert("\(row[0]).\(row[1])")
        }
        let indexes = """
            SELECT t.relname, i.indisprimary, i.indisunique, i.indpred IS NOT NULL,
                (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(i.indkey) WITH ORDINALITY k (attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum)
            FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE n.nspname = 'public' AND t.relname <> 'onboard_migrations'
            """
        for row in try await rows(indexes) {
            let columns = row[4].split(separator: ",").map(String.init)
            if row[1] == "t" {
                shape.primaryKeys.insert("\(row[0])(\(columns.joined(separator: ",")))")
            } else {
                shape.indexes.insert(describe(row[0], columns, unique: row[2] == "t", partial: row[3] == "t"))
            }
        }
        return shape
    }

    static func describe(_ table: String, _ columns: [String], unique: Bool, partial: Bool) -> String {
        "\(table)(\(columns.joined(separator: ",")))" + (unique ? " unique" : "") + (partial ? " partial" : "")
    }
}
