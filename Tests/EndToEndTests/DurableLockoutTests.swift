import Foundation
import ServiceAPI
import ServiceClient
import Testing
import TestSupport

extension EndToEnd {
    /// Issue 46 §4 (ASVS 5.0 6.3.1, 2.4.1): ten wrong passwords lock an account, but the
    /// count lived with the rate limits — in the server's memory on SQLite, in an unlogged
    /// table on PostgreSQL — so a server killed and started again, or PostgreSQL's crash
    /// recovery, gave the guesses back. Lockouts are written durably now.
    @Suite(.serialized) struct DurableLockoutTests {
        /// Ten wrong passwords for `email`: the eleventh attempt, even with the right one, waits.
        func lock(_ base: String, _ email: String) async throws {
            let client = try HTTPTransport(base: base)
            _ = try await client.register(flow: "babybasics", name: "Lo", email: email, password: "the right one")
            for _ in 0..<10 {
                await #expect(throws: ServiceError.self) {
                    _ = try await client.login(flow: "babybasics", email: email, password: "a wrong guess")
                }
            }
            try await expectLocked(base, email)
        }

        func expectLocked(_ base: String, _ email: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            do {
                _ = try await HTTPTransport(base: base).login(flow: "babybasics", email: email, password: "the right one")
                Issue.record("the account was not locked", sourceLocation: sourceLocation)
            } catch let error as ServiceError {
                #expect(error.code == .rateLimited, "\(error)", sourceLocation: sourceLocation)
            }
        }

        @Test func aLockoutSurvivesTheServerKilledOnSQLite() async throws {
            let first = try ServerProcess(arguments: ["--bcrypt-cost", "10"])
            try await lock(first.base, "sqlite.lock@example.org")
            kill(first.pid, SIGKILL)
            let again = try ServerProcess(arguments: ["--bcrypt-cost", "10"], database: first.database)
            defer { kill(again.pid, SIGKILL) }
            try await expectLocked(again.base, "sqlite.lock@example.org")
        }

        @Test func aLockoutSurvivesPostgreSQLsCrashRecovery() async throws {
            let postgres = try ThrowawayPostgres.own()
            defer { try? postgres.stop() }
            let url = postgres.url(try postgres.newDatabaseName())
            let server = try ServerProcess(arguments: ["--database", url, "--bcrypt-cost", "10"])
            defer { kill(server.pid, SIGKILL) }
            try await lock(server.base, "pg.lock@example.org")
            // `pg_ctl stop -m immediate`: a crash; the start replays the WAL, and nothing else.
            try postgres.stop()
            try postgres.start()
            var answered = false
            for _ in 0..<100 where !answered {
                answered = (try? await HTTPTransport(base: server.base).health()) != nil
                if !answered { try await Task.sleep(for: .milliseconds(100)) }
            }
            try await expectLocked(server.base, "pg.lock@example.org")
        }
    }
}
