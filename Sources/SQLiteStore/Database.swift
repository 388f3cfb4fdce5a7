import Crypto
import Foundation
import GRDB
import OnboardService
import ServiceAPI

/// Opens the service's SQLite file and brings its schema up to date.
public enum ServiceDatabase {
    public typealias Queue = DatabaseQueue

    /// `sealer`: the embedded mock of a state folder seals its personal columns with the
    /// folder's key (see ColumnSealer); without one the file is kept unsealed, and a file
    /// some folder sealed is refused, never read as garbage.
    public static func open(path: String, sealer: ColumnSealer? = nil) throws -> DatabaseQueue {
        // Two processes may open one new file at once (two terminals sharing a mock
        // backend): it is made and migrated under an exclusive lock beside it, so neither
        // meets the other's half-made schema.
        let lock = try CreationLock(path + ".lock")
        defer { lock.release() }
        // Created 0600: accounts and hashes are nobody else's business. SQLite gives its
        // -wal and -shm files the database file's mode.
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        var configuration = Configuration()
        // Two terminals may share one mock backend: wait for the other's write lock.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // WAL with synchronous NORMAL: a commit waits for no fsync of its own (the log
            // is synced at checkpoints), so writes stop queueing behind the disk. Survives
            // the process crashing; a power cut may drop the last commits.
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Each write of a group commit has a savepoint, whose undo copies SQLite keeps
            // in a temporary file past 64 KiB: a write to disk per page changed. In memory
            // they cost a copy (DECISIONS 42).
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            if let sealer {
                sealer.register(in: db)
                // What is deleted or rewritten is zeroed in the file, not left in free space.
                try db.execute(sql: "PRAGMA secure_delete = ON")
            } else {
                ColumnSealer.registerPassThrough(in: db)
            }
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try migrator.migrate(queue)
        if let sealer {
            try sealer.adopt(queue, path: path)
        } else if try queue.read(ColumnSealer.isSealed) {
            throw ServiceError(
                .serverError,
                "\(path) is an embedded mock's file, its personal data sealed with its state folder's key: open it as that folder's mock (onboard --state-dir FOLDER)."
            )
        }
        return queue
    }

    /// SQLite itself says the file is damaged, or is no database at all: the only reason
    /// to set one aside. Busy or locked is another process at work, never damage.
    public static func isDamaged(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    public static func inMemory() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in ColumnSealer.registerPassThrough(in: db) }
        let queue = try DatabaseQueue(configuration: configuration)
        try migrator.migrate(queue)
        return queue
    }

    /// The keys kept in a database, made on first use.
    static func keys(in queue: DatabaseQueue) throws -> ServiceKeys {
        let fresh = ServiceKeys.fresh()
        return ServiceKeys(
            signing: try storedKey(named: "access", in: queue, fresh: fresh.signing),
            identityProvider: try storedKey(named: "mock-idp", in: queue, fresh: fresh.identityProvider))
    }

    /// A key kept in the database: the first process to ask stores `fresh`, every later
    /// one reads what was stored.
    static func storedKey(named name: String, in queue: DatabaseQueue, fresh: [UInt8]) throws -> [UInt8] {
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO service_keys (name, secret) VALUES (?, ?) ON CONFLICT DO NOTHING",
                arguments: [name, Data(fresh)])
            let stored = try Data.fetchOne(db, sql: "SELECT secret FROM service_keys WHERE name = ?", arguments: [name])
            return [UInt8](stored ?? Data(fresh))
        }
    }
}

/// An exclusive `flock` on a file of its own, held while a database is made and migrated.
private struct CreationLock {
    private let descriptor: Int32

    init(_ path: String) throws {
        descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServiceError(.serverError, "\(path): cannot be opened (\(String(cString: strerror(errno)))).")
        }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
