import Logging
import PostgresNIO

extension PostgresConnection {
    /// The first column of the first row, if any.
    func first<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type, logger: Logger) async throws -> T? {
        let rows = try await self.query(query, logger: logger)
        // Read to the end: leaving a row stream early can leave the connection waiting.
        var first: T?
        for try await value in rows.decode(T.self) where first == nil { first = value }
        return first
    }

    /// The first column of every row.
    func all<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type, logger: Logger) async throws -> [T] {
        var values: [T] = []
        for try await value in try await self.query(query, logger: logger).decode(T.self) { values.append(value) }
        return values
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
