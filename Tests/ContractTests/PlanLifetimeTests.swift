import OnboardService
import PostgresNIO
import PostgresStore
import TestSupport
import Testing

/// DECISIONS 43: PostgreSQL plans a prepared statement once per connection and may keep
/// that plan while the table it reads grows from one page to thousands. A store lets go of
/// a connection's plans once they are its plan lifetime old, so a plan made on an empty
/// table does not outlive the table it was made for.
@Suite struct PlanLifetimeTests {
    /// A store on `url` with one connection (every call and every EXPLAIN on it), migrated.
    static func store(_ url: String, planLifetime: Duration) async throws -> PostgresStore {
        try await PostgresSubject.store(url: url, maximumConnections: 1, planLifetime: planLifetime)
    }

    /// The plan the connection would use now for the next invite redemption.
    static func redemptionPlan(_ store: PostgresStore) async throws -> String {
        _ = try await store.redeemInvite(codeHash: "no such code", by: "nobody", now: 0)
        let rows = try await store.client.withConnection { db in
            try await db.query(
                #"EXPLAIN EXECUTE "PostgresStore.InviteRedemptionStatement"(0, 'nobody', 'no such code')"#, logger: Logger(label: "test")
            )
            .collect()
        }
        return try rows.map { try $0.decode(String.self) }.joined(separator: "\n")
    }

    @Test func aPlanMadeOnATinyTableIsMadeAgainOnceTheTableHasGrown() async throws {
        let server = try await ThrowawayPostgres.sharedServer()
        let database = try await offThePool { try server.newDatabaseName() }
        let lasting = try await Self.store(server.url(database), planLifetime: .seconds(3600))
        let bounded = try await Self.store(server.url(database), planLifetime: .milliseconds(200))
        // One invite, the table analysed at one page; autovacuum kept away, so only the
        // store can make its plans again.
        _ = try await offThePool {
            try server.query(
                """
                INSERT INTO users (id, created_at, is_anonymous) VALUES ('owner', 0, FALSE);
                INSERT INTO children (id, name, created_by, created_at) VALUES ('child', 'Robin', 'owner', 0);
                INSERT INTO invites (code_hash, child_id, created_by, created_at, expires_at) VALUES ('one', 'child', 'owner', 0, 0);
                ALTER TABLE invites SET (autovacuum_enabled = false);
                ANALYZE invites;
                """, in: database)
        }
        // More than five calls: PostgreSQL settles on a generic plan, made for one page.
        for store in [lasting, bounded] {
            for _ in 0..<8 { _ = try await store.redeemInvite(codeHash: "no such code", by: "nobody", now: 0) }
        }
        let tiny = try await Self.redemptionPlan(lasting)
        #expect(tiny.contains("Seq Scan on invites"), "the plan made for one page reads the whole table:\n\(tiny)")

        _ = try await offThePool {
            try server.query(
                """
                INSERT INTO invites (code_hash, child_id, created_by, created_at, expires_at)
                SELECT md5(n::text), 'child', 'owner', 0, 0 FROM generate_series(1, 100000) AS n
                """, in: database)
        }
        // Kept for an hour, the one-page plan still reads 100,001 rows for each redemption.
        let stale = try await Self.redemptionPlan(lasting)
        #expect(stale.contains("Seq Scan on invites"), "\(stale)")
        // Kept for 200 ms, the plan is made again from the table as it is now.
        try await Task.sleep(for: .milliseconds(300))
        let fresh = try await Self.redemptionPlan(bounded)
        #expect(fresh.contains("Index Scan using invites_pkey on invites"), "\(fresh)")
        #expect(!fresh.contains("Seq Scan on invites"), "\(fresh)")
    }
}
