import Foundation
import GRDB
import OnboardService
import ServiceAPI

/// Idempotency keys in SQLite.
extension SQLiteStore {
    /// Forgets expired keys, then claims `id` or reports its state.
    public func claimIdempotency(
        _ id: String, operation: String, request: String, now: Int64, window: Int64, wait: Int64
    ) async throws -> IdempotencyClaim {
        try await write { db in
            try db.execute(sql: "DELETE FROM idempotency WHERE created_at < ?", arguments: [now - window])
            let me = Int64(getpid())
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT operation, request_hash, sealed, created_at, owner FROM idempotency WHERE id = ?", arguments: [id])
            else {
                try db.execute(
                    sql: "INSERT INTO idempotency (id, operation, request_hash, created_at, owner) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, operation, request, now, me])
                return .claimed
            }
            guard row["operation"] as String == operation else { return .otherOperation }
            if let held: String = row["request_hash"], held != request { return .otherRequest }
            if let sealed: Data = row["sealed"] { return .finished(sealed) }
            let createdAt: Int64 = row["created_at"]
            let owner: Int64? = row["owner"]
            if now - createdAt > wait || owner.map({ $0 != me && !Self.isRunning($0) }) == true {
                // Abandoned (a process killed mid-call): taken over.
                try db.execute(sql: "UPDATE idempotency SET created_at = ?, owner = ? WHERE id = ?", arguments: [now, me, id])
                return .claimed
            }
            return .running
        }
    }

    /// Whether a process with this pid exists (a reused pid only means waiting out `wait`).
    static func isRunning(_ pid: Int64) -> Bool {
        guard let pid = pid_t(exactly: pid), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    public func sealIdempotency(_ id: String, result: Data) async throws {
        try await write { db in try db.execute(sql: "UPDATE idempotency SET sealed = ? WHERE id = ?", arguments: [result, id]) }
    }

    public func releaseIdempotency(_ id: String) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM idempotency WHERE id = ? AND sealed IS NULL", arguments: [id]) }
    }
}
