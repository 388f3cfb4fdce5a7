import FlowEngine
import Foundation

/// One flow's client state on disk: `session.json`, `progress.json` and the analytics
/// log `events.jsonl`, in `<state dir>/<flow id>/`. A file that cannot be read is set
/// aside under a new name and reported, never deleted and never a crash.
public final class StateStore {
    public let folder: String
    public var sessionPath: String { sessionFile.path }
    public var sessionFile: SessionFile { SessionFile(path: folder + "/session.json") }
    public var progressPath: String { folder + "/progress.json" }
    public let analytics: AnalyticsLog

    public init(stateDirectory: String, flowID: String) {
        folder = stateDirectory + "/" + flowID
        analytics = AnalyticsLog(path: folder + "/events.jsonl")
    }

    /// What was saved, and plain-language warnings for files that had to be set aside.
    public func load() -> (session: Session?, progress: SavedProgress?, warnings: [String]) {
        var warnings: [String] = []
        let session: Session? = read(sessionPath, what: "saved session", warnings: &warnings)
        // Signed in, an unreadable progress file does not start the flow again: say what
        // is kept (the account) and what is lost (answers kept only on this device).
        let outcome = session == nil ? "this starts fresh" : "you are still signed in, but answers kept only on this device are lost"
        let progress: SavedProgress? = read(progressPath, what: "saved progress", outcome: outcome, warnings: &warnings)
        return (session, progress, warnings)
    }

    public func save(session: Session?) throws {
        try sessionFile.save(session)
    }

    public func save(progress: SavedProgress?) throws {
        try AtomicFile.writeJSON(progress, to: progressPath)
    }

    /// Removes this flow's session (and its lock file), progress and analytics log.
    public func reset() throws {
        for path in [sessionPath, sessionFile.lockPath, progressPath, analytics.path] where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.removeItem(atPath: path)
        }
    }

    private func read<T: Decodable>(_ path: String, what: String, outcome: String = "this starts fresh", warnings: inout [String]) -> T? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            let aside = Self.setAside(path)
            let name = (path as NSString).lastPathComponent
            warnings.append("Your \(what) (\(name)) could not be read, so \(outcome). The old file was kept as \(aside.map { ($0 as NSString).lastPathComponent } ?? name).")
            return nil
        }
    }

    /// Renames a bad file to `<name>.corrupt-<time>` and returns the new path.
    public static func setAside(_ path: String) -> String? {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let target = "\(path).corrupt-\(stamp)"
        return rename(path, target) == 0 ? target : nil
    }
}
