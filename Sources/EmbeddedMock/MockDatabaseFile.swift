import Foundation
import Installation
import OnboardService
import SQLiteStore
import ServiceAPI

/// The embedded mock's SQLite file, opened as a state file is: one SQLite calls damaged
/// is set aside and said, and so is one sealed with a key this folder no longer has. Any
/// other failure (a file another process holds locked) changes nothing and is said as it is.
public enum MockDatabaseFile {
    public struct Opened {
        public var mock: InProcessTransport
        /// A damaged file set aside, in a sentence.
        public var warning: String?
        /// A file sealed with a key this folder no longer has, as it was kept.
        public var lostAs: String?
    }

    public static func open(path: String, sealer: ColumnSealer?, clock: any ServiceClock) throws -> Opened {
        // Its folder is private, as the state folder it usually sits in.
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var warning: String?
        var lostAs: String?
        let database: ServiceDatabase.Queue
        do {
            database = try ServiceDatabase.open(path: path, sealer: sealer)
        } catch is ColumnSealer.ForeignKey {
            lostAs = DamagedFile.setAside(path) ?? path
            database = try ServiceDatabase.open(path: path, sealer: sealer)
        } catch  where !ServiceDatabase.isDamaged(error) {
            throw ServiceError(
                .serverError, "The mock service's database \(path) could not be opened (\(error)). Nothing was changed; try again.")
        } catch {
            let aside = DamagedFile.setAside(path)
            warning =
                "The mock service's database could not be opened (\(error)), so it starts empty. The old file was kept as \(aside ?? path)."
            database = try ServiceDatabase.open(path: path, sealer: sealer)
        }
        return Opened(
            mock: InProcessTransport(service: try OnboardService(database: database, clock: clock)), warning: warning, lostAs: lostAs)
    }
}
