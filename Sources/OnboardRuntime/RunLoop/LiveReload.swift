import Foundation
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
    private let loadTheme: (String) throws -> Theme
    private var stamps: [String: Stamp] = [:]

    struct Stamp: Equatable {
        var modified: timespec
        var size: off_t
        var inode: ino_t

        static func == (lhs: Stamp, rhs: Stamp) -> Bool {
            lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
                && lhs.size == rhs.size && lhs.inode == rhs.inode
        }
    }

    public init(flowPath: String?, themePath: String?, loadTheme: @escaping (String) throws -> Theme) {
        self.flowPath = flowPath
        self.themePath = themePath
        self.loadTheme = loadTheme
        for path in [flowPath, themePath].compactMap({ $0 }) { stamps[path] = Self.stamp(path) }
    }

    static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(modified: info.st_mtim, size: info.st_size, inode: info.st_ino)
    }

    /// What changed since the last look, or nil.
    public func poll() -> [Change] {
        var changes: [Change] = []
        for path in [flowPath, themePath].compactMap({ $0 }) {
            let now = Self.stamp(path)
            guard now != stamps[path] else { continue }
            stamps[path] = now
            changes.append(path == flowPath ? readFlow(path) : readTheme(path))
        }
        return changes
    }

    private func readFlow(_ path: String) -> Change {
        do {
            return Change(file: path, flow: try FlowFiles.load(url: URL(fileURLWithPath: path), displayName: path))
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
