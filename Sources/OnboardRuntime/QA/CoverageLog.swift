import FlowEngine
import FoundationEssentials

/// What QA has reached of one flow in a state folder (`Reach` ids, one a line, appended as
/// reached): `onboard coverage` and the QA console read it back. It lives beside the
/// flows' folders, not in one, so resetting a flow (which QA does all day) keeps it;
/// `onboard reset` with no flow clears it with everything else.
public final class CoverageLog {
    public let path: String
    /// Read on the first record, so a launch opens nothing more before its first screen.
    private var known: Set<Reach>?

    public init(stateDirectory: String, flowID: String) {
        path = stateDirectory + "/coverage/" + flowID + ".seen"
    }

    /// Everything reached so far; lines that are not a `Reach` (a torn last line) are
    /// skipped.
    public func seen() -> Set<Reach> {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Reach(id: String($0)) })
    }

    /// Adds what is new.
    public func record(_ reach: Reach) throws {
        if known == nil { known = seen() }
        guard known?.insert(reach).inserted == true else { return }
        try AtomicFile.append(Data((reach.id + "\n").utf8), to: path)
    }

    /// Starts counting afresh.
    public func clear() throws {
        known = []
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    }
}
