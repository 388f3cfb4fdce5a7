import Foundation
import GRDB
@testable import OnboardService
import Synchronization
import Testing

/// SQLite's write path (DECISIONS 42): writes that arrive together share a commit, each
/// in its own savepoint; the users table's unique indexes hold only values that are set.
@Suite struct SQLiteWritePathTests {
    struct Refused: Error {}

    /// A table of numbers, in a real SQLite file with the server's settings, and a
    /// counter of the commits that reach it.
    func numbers() throws -> (DatabaseQueue, GroupCommit, CommitCounter) {
        let queue = try ServiceDatabase.open(path: temporaryDatabasePath())
        try queue.write { db in try db.execute(sql: "CREATE TABLE numbers (n INTEGER NOT NULL UNIQUE)") }
        let commits = CommitCounter()
        queue.add(transactionObserver: commits, extent: .databaseLifetime)
        return (queue, GroupCommit(queue), commits)
    }

    /// A write that fails is rolled back alone: its neighbours in the same commit keep
    /// theirs, and each caller hears its own outcome.
    @Test func writesThatArriveTogetherShareACommitAndAFailureStaysItsOwn() async throws {
        let (queue, writes, commits) = try numbers()
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            // The first write holds the writer while the other 99 queue up behind it.
            group.addTask {
                try await writes.write { db in
                    Thread.sleep(forTimeInterval: 0.2)
                    try db.execute(sql: "INSERT INTO numbers (n) VALUES (0)")
                }
                return (0, true)
            }
            try await Task.sleep(for: .milliseconds(50))
            for n in 1..<100 {
                group.addTask {
                    do {
                        try await writes.write { db in
                            try db.execute(sql: "INSERT INTO numbers (n) VALUES (?)", arguments: [n])
                            // Every tenth changed the table, then refuses: nothing of it may stay.
                            if n.isMultiple(of: 10) { throw Refused() }
                        }
                        return (n, true)
                    } catch is Refused {
                        return (n, false)
                    }
                }
            }
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        let stored = try await queue.read { db in try Set(Int.fetchAll(db, sql: "SELECT n FROM numbers")) }
        #expect(stored == Set((0..<100).filter { !$0.isMultiple(of: 10) || $0 == 0 }))
        #expect(outcomes.filter { !$0.value }.keys.sorted() == Array(stride(from: 10, to: 100, by: 10)))
        // 99 writes waited behind the first: far fewer commits than writes.
        let counted = commits.count.withLock { $0 }
        #expect(counted <= 4, "\(counted) commits for 100 writes")
    }

    /// A write that ends the whole transaction (as a full disk or an I/O error does) takes
    /// the others in it down too: no caller is told its write stayed when it did not.
    @Test func aWriteThatEndsTheTransactionFailsEveryWriteInIt() async throws {
        let (queue, writes, _) = try numbers()
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await writes.write { _ in Thread.sleep(forTimeInterval: 0.2) }
                return true
            }
            try await Task.sleep(for: .milliseconds(50))
            for n in 1...3 {
                group.addTask {
                    do {
                        try await writes.write { db in
                            try db.execute(sql: "INSERT INTO numbers (n) VALUES (?)", arguments: [n])
                            if n == 2 { try db.execute(sql: "ROLLBACK") }
                        }
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        let stored = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM numbers") }
        let toldStored = outcomes.filter { $0 }.count - 1  // the first wrote nothing
        #expect(stored == toldStored, "\(toldStored) callers told their row is stored, \(stored ?? -1) rows are")
        #expect(stored == 0 || stored == 1, "what ran after the rollback is in a commit of its own")
        // The writer goes on afterwards.
        try await writes.write { db in try db.execute(sql: "INSERT INTO numbers (n) VALUES (1000)") }
        #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM numbers WHERE n = 1000") } == 1)
    }

    /// Schema v11 rebuilds the users table: every account and its references survive, and
    /// the unique rules still hold for the values that are set.
    @Test func theUsersTableRebuildKeepsEveryAccountAndItsRules() throws {
        let path = temporaryDatabasePath()
        var configuration = Configuration()
        configuration.prepareDatabase { db in ColumnSealer.registerPassThrough(in: db) }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try ServiceDatabase.migrator.migrate(queue, upTo: "v10: analytics events")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, created_at, is_anonymous, display_name, email) VALUES ('named', 1, 0, 'Brave Fox', 'a@b.example');
                    INSERT INTO users (id, created_at, is_anonymous) VALUES ('guest-1', 2, 1), ('guest-2', 3, 1);
                    INSERT INTO name_offers (name, user_id, offered_at) VALUES ('Calm Owl', 'guest-1', 2);
                    """)
        }
        try ServiceDatabase.migrator.migrate(queue)
        try queue.write { db in
            #expect(try String.fetchAll(db, sql: "SELECT id FROM users ORDER BY created_at") == ["named", "guest-1", "guest-2"])
            #expect(try String.fetchOne(db, sql: "SELECT email FROM users WHERE display_name = 'Brave Fox'") == "a@b.example")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO users (id, created_at, is_anonymous, email) VALUES ('twin', 4, 0, 'a@b.example')")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "UPDATE users SET display_name = 'Brave Fox' WHERE id = 'guest-2'")
            }
            #expect(try db.foreignKeyViolations().map(\.originTable).isEmpty)
            // A reference to users still cascades.
            try db.execute(sql: "DELETE FROM users WHERE id = 'guest-1'")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM name_offers") == 0)
        }
    }
}

/// Counts the commits a database sees.
final class CommitCounter: TransactionObserver, Sendable {
    let count = Mutex(0)
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { count.withLock { $0 += 1 } }
    func databaseDidRollback(_ db: Database) {}
}

/// The log is copied back beside the writer (`Checkpointer`), and stays bounded under
/// writes that never pause.
@Suite struct CheckpointerTests {
    @Test func theLogStaysBoundedWhileGuestsKeepComing() async throws {
        let path = temporaryDatabasePath()
        var settings = ServiceSettings()
        settings.signInPerAddress = RateLimit(limit: 1_000_000, window: 60)
        let service = try OnboardService(database: try ServiceDatabase.open(path: path), settings: settings)
        var largestLog = 0
        for _ in 0..<300 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<16 { group.addTask { _ = try await service.signInAnonymously(policy: .anonymous) } }
                try await group.waitForAll()
            }
            let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber
            largestLog = max(largestLog, try #require(log).intValue)
        }
        // 4,800 guests write some 20,000 pages of log; it holds a few thousand at a time.
        let pageAndHeader = 4_096 + 24
        #expect(largestLog <= 2 * Checkpointer.restartMark * pageAndHeader, "a log of \(largestLog / pageAndHeader) pages")
        let reader = try DatabaseQueue(path: path)
        #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM users") } == 4_800)
    }
}
