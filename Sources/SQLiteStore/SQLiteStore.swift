import Foundation
import GRDB
import OnboardService
import ServiceAPI

/// The service's store in one SQLite file (GRDB). Each operation is atomic on SQLite's
/// single writer, across processes sharing the file too: its own savepoint in a
/// transaction it may share with writes that came at the same moment (`GroupCommit`).
/// Rate limits are counted in this process's memory. One file per aggregate of
/// `ServiceStore` (`SQLiteStore+Profiles.swift` …), opposite PostgreSQL's.
public final class SQLiteStore: ServiceStore {
    let queue: DatabaseQueue
    let limiter = RateLimiter()
    private let writes: GroupCommit

    public init(_ queue: DatabaseQueue) {
        self.queue = queue
        writes = GroupCommit(queue, checkpointer: Checkpointer(path: queue.path))
    }

    /// One write, atomic, committed (with the writes that came at the same time) before
    /// it returns.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await translatingErrors { try await writes.write(body) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await translatingErrors { try await queue.read(body) }
    }

    /// Service errors pass through; anything the database throws becomes a server error.
    private func translatingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError.databaseFailed("\(error)")
        }
    }

    public func storedKey(named name: String, fresh: [UInt8]) async throws -> [UInt8] {
        try ServiceDatabase.storedKey(named: name, in: queue, fresh: fresh)
    }

    public func ping() async throws {
        try await read { db in try db.execute(sql: "SELECT 1") }
    }

    static func recordOutbox(_ entry: OutboxEntry?, in db: Database) throws {
        guard let entry else { return }
        try db.execute(
            sql: "INSERT INTO outbox (kind, destination, code, created_at) VALUES (?, seal(?), ?, ?)",
            arguments: [entry.kind, entry.destination, entry.code, entry.createdAt])
    }
}
