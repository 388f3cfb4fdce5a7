import Foundation
import Logging
import OnboardService
import PostgresNIO
import ServiceAPI

/// Idempotency keys in PostgreSQL.
extension PostgresStore {
    public func claimIdempotency(
        _ id: String, operation: String, request: String, now: Int64, window: Int64, wait: Int64
    ) async throws -> IdempotencyClaim {
        try await transaction { db in
            try await db.query("DELETE FROM idempotency WHERE created_at < \(now - window)", logger: self.logger)
            if try await db.first(
                "INSERT INTO idempotency (id, operation, request_hash, created_at) VALUES (\(id), \(operation), \(request), \(now)) ON CONFLICT DO NOTHING RETURNING id",
                as: String.self, logger: self.logger) != nil
            {
                return .claimed
            }
            let rows = try await db.query(
                "SELECT operation, request_hash, sealed, created_at FROM idempotency WHERE id = \(id) FOR UPDATE", logger: self.logger)
            var found: (String, String?, Data?, Int64)?
            for try await row in rows.decode((String, String?, Data?, Int64).self) { found = row }
            guard let (claimedFor, held, sealed, createdAt) = found else { return .running }
            guard claimedFor == operation else { return .otherOperation }
            if let held, held != request { return .otherRequest }
            if let sealed { return .finished(sealed) }
            if now - createdAt > wait {
                // Abandoned (an instance killed mid-call): taken over.
                try await db.query("UPDATE idempotency SET created_at = \(now) WHERE id = \(id)", logger: self.logger)
                return .claimed
            }
            return .running
        }
    }

    public func sealIdempotency(_ id: String, result: Data) async throws {
        try await transaction { db in try await db.query("UPDATE idempotency SET sealed = \(result) WHERE id = \(id)", logger: self.logger)
        }
    }

    public func releaseIdempotency(_ id: String) async throws {
        try await transaction { db in try await db.query("DELETE FROM idempotency WHERE id = \(id) AND sealed IS NULL", logger: self.logger)
        }
    }
}
