import GRDB
import OnboardService
import ServiceAPI

/// Analytics events and the funnel in SQLite.
extension SQLiteStore {
    public func storeEvents(_ events: [StoredEvent], deletingReceivedBefore cutoff: Int64) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM analytics_events WHERE received_at < ?", arguments: [cutoff])
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO analytics_events (id, flow, event, screen, screen_index, user_id, anonymous_id, occurred_at_ms, received_at,
                        app_version, error_code, attempt_number, duration_ms, variant, properties, starts_run)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                    """)
            var stored = 0
            for event in events {
                try insert.execute(arguments: [
                    event.id, event.flow, event.event, event.screen, event.screenIndex, event.userID, event.anonymousID, event.occurredAt,
                    event.receivedAt, event.appVersion, event.errorCode, event.attemptNumber, event.durationMilliseconds, event.version,
                    event.properties, event.startsRun ? 1 : nil,
                ])
                stored += db.changesCount
            }
            return stored
        }
    }

    public func deleteEvents(anonymousID: String, userID: String?) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM analytics_events WHERE anonymous_id = ? OR user_id = ?", arguments: [anonymousID, userID])
            return db.changesCount
        }
    }

    public func funnelRows(flow: String, since: Int64) async throws -> [FunnelRow] {
        try await read { db in
            var rows: [FunnelRow] = []
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT anonymous_id, screen, screen_index, occurred_at_ms, error_code, attempt_number IS NOT NULL, duration_ms, variant,
                        starts_run IS NOT NULL
                    FROM analytics_events WHERE flow = ? AND occurred_at_ms >= ?
                    """,
                arguments: [flow, since])
            while let row = try cursor.next() {
                let person: String = row[0]
                rows.append(
                    FunnelRow(
                        person: Int64(person.hashValue), screen: row[1], screenIndex: row[2], occurredAt: row[3], errorCode: row[4],
                        isRetry: row[5],
                        durationMilliseconds: row[6], version: row[7], startsRun: row[8]))
            }
            return rows
        }
    }
}
