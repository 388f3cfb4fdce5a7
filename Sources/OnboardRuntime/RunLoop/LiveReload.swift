import ScreenTable
import TerminalUI

/// `--watch`: the flow file and theme file a run reads again when they change on disk.
/// Polled by the run's loop (a `stat` each a quarter second): editors save by writing in
/// place or by renaming a new file over the old, and both change what `stat` says.
public final class LiveReload {
    /// What changed: a new flow or theme to use, or the problems that keep one from use.
    public struct Change {
        /// The file that changed.
        public var file: String
        public var flow: Flow?
        public var theme: Theme?
        /// Each problem in one line (`file:line:column: error: …`).
        public var problems: [String] = []
    }

    public let flowPath: String?
    public let themePath: String?
    /// The readers of each: YAML, which the runtime does not link (`onboard-files` does).
    private let loadFlow: (String) throws -> Flow
    private let loadTheme: (String) throws -> Theme
    private var stamps: [String: FileStamp] = [:]

    public init(
        flowPath: String?, themePath: String?, loadFlow: @escaping (String) throws -> Flow, loadTheme: @escaping (String) throws -> Theme
    ) {
        self.flowPath = flowPath
        self.themePath = themePath
        self.loadFlow = loadFlow
        self.loadTheme = loadTheme
        for path in [flowPath, themePath].compactMap({ $0 }) { stamps[path] = FileStamp(path) }
    }

    /// What changed since the last look, or nil.
    public func poll() -> [Change] {
        var changes: [Change] = []
        for path in [flowPath, themePath].compactMap({ $0 }) {
            let now = FileStamp(path)
            guard now != stamps[path] else { continue }
            stamps[path] = now
            changes.append(path == flowPath ? readFlow(path) : readTheme(path))
        }
        return changes
    }

    private func readFlow(_ path: String) -> Change {
        do {
            return Change(file: path, flow: try loadFlow(path))
        } catch let error as FlowFileError {
            return Change(file: path, problems: error.problems.map(\.description))
        } catch {
            return Change(file: path, problems: ["\(path): \(error)"])
        }
    }

    private func readTheme(_ path: String) -> Change {
        do {
            return Change(file: path, theme: try loadTheme(path))
        } catch {
            return Change(file: path, problems: ["\(error)"])
        }
    }
}
