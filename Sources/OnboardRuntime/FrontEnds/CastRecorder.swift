import Foundation
import TerminalUI

/// Writes an asciicast v2 recording (https://docs.asciinema.org/manual/asciicast/v2/):
/// a JSON header, then one `[seconds, "o", data]` line per frame, each a full repaint
/// with the theme's colours, so standard players replay it. It records the frames the
/// runner gives it, which never hold a password or a code.
public final class CastRecorder {
    private let handle: FileHandle
    private let theme: Theme
    private let started = ContinuousClock.now
    private var last: Frame?

    public init(path: String, width: Int, height: Int, theme: Theme, title: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
        self.theme = theme
        let header: [String: Any] = [
            "version": 2, "width": width, "height": height, "timestamp": Int(Date().timeIntervalSince1970),
            "title": title, "env": ["TERM": "xterm-256color"],
        ]
        try write(JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
    }

    /// Records a frame if it differs from the last one.
    public func record(_ frame: Frame) {
        guard frame != last else { return }
        last = frame
        let seconds =
            Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - started).components.seconds)
        let event: [Any] = [(seconds * 1000).rounded() / 1000, "o", Self.repaint(frame, theme: theme)]
        try? write(JSONSerialization.data(withJSONObject: event))
    }

    public func close() {
        try? handle.close()
    }

    /// The whole screen: home, then each row at its own position, colours by role, and
    /// the cursor where the frame puts it (hidden when it has none).
    public static func repaint(_ frame: Frame, theme: Theme) -> String {
        let rows = ANSIPreview.render(frame, theme: theme).split(separator: "\n", omittingEmptySubsequences: false)
        var output = "\u{1B}[?25l\u{1B}[H"
        for (index, row) in rows.prefix(frame.height).enumerated() {
            output += "\u{1B}[\(index + 1);1H" + row
        }
        if let cursor = frame.cursor {
            output += "\u{1B}[\(cursor.y + 1);\(cursor.x + 1)H\u{1B}[?25h"
        }
        return output
    }

    private func write(_ data: Data) throws {
        try handle.write(contentsOf: data + Data("\n".utf8))
    }
}
