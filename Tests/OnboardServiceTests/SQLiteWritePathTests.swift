import Foundation
import GRDB
@testable import OnboardService
@testable import SQLiteStore
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

    /// Starts a write that, once it runs, holds the writer until `count` more writes wait
    /// for the next batch, then does `body`; returns once it runs. Its result joins
    /// `group`'s as a success.
    static func holding<Result: Sendable>(
        _ writes: GroupCommit, until count: Int, in group: inout ThrowingTaskGroup<Result, any Error>, success: Result,
        _ body: @escaping @Sendable (Database) throws -> Void
    ) async throws {
        let running = Flag()
        group.addTask {
            try await writes.write { db in
                running.set()
                let deadline = Date().addingTimeInterval(30)
                while writes.waitingCount < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
                try body(db)
            }
            return success
        }
        while !running.isSet { try await Task.sleep(for: .milliseconds(1)) }
    }

    /// A write that fails is rolled back alone: its neighbours in the same commit keep
    /// theirs, and each caller hears its own outcome.
    @Test func writesThatArriveTogetherShareACommitAndAFailureStaysItsOwn() async throws {
        let (queue, writes, commits) = try numbers()
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            // The first write holds the writer until the other 99 wait behind it.
            try await Self.holding(writes, until: 99, in: &group, success: (0, true)) { db in
                try db.execute(sql: "INSERT INTO numbers (n) VALUES (0)")
            }
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
        // The first write's commit, then one for the 99 that waited behind it.
        let counted = commits.count.withLock { $0 }
        #expect(counted == 2, "\(counted) commits for 100 writes")
    }

    /// A write that ends the whole transaction (as a full disk or an I/O error does) takes
    /// the others in it down too: no caller is told its write stayed when it did not.
    @Test func aWriteThatEndsTheTransactionFailsEveryWriteInIt() async throws {
        let (queue, writes, _) = try numbers()
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            try await Self.holding(writes, until: 3, in: &group, success: true) { _ in }
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
        #expect(stored == 0)
        #expect(outcomes.filter { $0 }.count == 1, "only the first, alone in its commit, is told it stayed")
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

/// Set once, read from anywhere.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
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
        #expect(largestLog <= 2 * Checkpointer.writerMark * pageAndHeader, "a log of \(largestLog / pageAndHeader) pages")
        let reader = try DatabaseQueue(path: path)
        #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM users") } == 4_800)
    }
}
