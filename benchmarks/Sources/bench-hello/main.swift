// The ceilings for the server benchmarks, on the same stack onboard-server uses and
// measured in the same run:
//
//     bench-hello PORT              GET /hello: a bare route, no I/O
//     bench-hello PORT DATABASE     and POST /insert: one durable transaction inserting a
//                                   user-sized row and a token-sized row, in a SQLite file
//                                   (the server's pragmas) or a postgres:// database (the
//                                   server's pool) — what an endpoint that must write
//                                   cannot beat
import Foundation
import GRDB
import Hummingbird
import Logging
import OnboardService
import PostgresNIO
import PostgresStore
import SQLiteStore

let arguments = Array(CommandLine.arguments.dropFirst())
let port = Int(arguments.first ?? "") ?? 8090
let router = Router()
router.get("hello") { _, _ in "hello" }

if let database = arguments.dropFirst().first {
    let insert = try await durableInsert(into: database)
    router.post("insert") { _, _ in
        try await insert(UUID().uuidString, Int64(Date().timeIntervalSince1970))
        return "inserted"
    }
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()

/// The insert for `database`, its tables made.
func durableInsert(into database: String) async throws -> @Sendable (String, Int64) async throws -> Void {
    let users = "CREATE TABLE IF NOT EXISTS ceiling_users (id TEXT PRIMARY KEY, created_at BIGINT NOT NULL, is_anonymous BOOLEAN NOT NULL)"
    let tokens = """
        CREATE TABLE IF NOT EXISTS ceiling_tokens (token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, family_id TEXT NOT NULL,
            created_at BIGINT NOT NULL, expires_at BIGINT, access_lifetime BIGINT NOT NULL)
        """
    guard database.hasPrefix("postgres") else {
        let queue = try ServiceDatabase.open(path: database)
        try await queue.write { db in
            try db.execute(sql: users)
            try db.execute(sql: tokens)
        }
        return { id, now in
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO ceiling_users VALUES (?, ?, 1)", arguments: [id, now])
                try db.execute(sql: "INSERT INTO ceiling_tokens VALUES (?, ?, ?, ?, ?, 900)", arguments: [id + "-token", id, id, now, now + 86400])
            }
        }
    }
    let logger = Logger(label: "bench-hello")
    let client = PostgresClient(configuration: try PostgresLocation(url: database).clientConfiguration())
    Task { await client.run() }
    try await client.query(PostgresQuery(unsafeSQL: users), logger: logger)
    try await client.query(PostgresQuery(unsafeSQL: tokens), logger: logger)
    return { id, now in
        try await client.withTransaction(logger: logger) { db in
            try await db.query("INSERT INTO ceiling_users VALUES (\(id), \(now), TRUE)", logger: logger)
            try await db.query("INSERT INTO ceiling_tokens VALUES (\(id + "-token"), \(id), \(id), \(now), \(now + 86400), 900)", logger: logger)
        }
    }
}
