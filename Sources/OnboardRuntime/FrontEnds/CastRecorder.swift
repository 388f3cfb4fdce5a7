import FoundationEssentials
import Installation
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes an asciicast v2 recording (https://docs.asciinema.org/manual/asciicast/v2/):
/// a JSON header, then one `[seconds, "o", data]` line per frame, each a full repaint
/// with the theme's colours, so standard players replay it. It records the frames the
/// runner gives it, which never hold a password or a code.
public final class CastRecorder {
    private let descriptor: Int32
    private let theme: Theme
    private let started = ContinuousClock.now
    private var last: Frame?

    public init(path: String, width: Int, height: Int, theme: Theme, title: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw RecordingError(reason: String(cString: strerror(errno))) }
        self.theme = theme
        let header = Header(
            version: 2, width: width, height: height, timestamp: Int(Date().timeIntervalSince1970), title: title,
            env: ["TERM": "xterm-256color"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        write(try encoder.encode(header))
    }

    /// Records a frame if it differs from the last one.
    public func record(_ frame: Frame) {
        guard frame != last else { return }
        last = frame
        let seconds =
            Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - started).components.seconds)
        let event = Event(seconds: (seconds * 1000).rounded() / 1000, text: Self.repaint(frame, theme: theme))
        if let line = try? JSONEncoder().encode(event) { write(line) }
    }

    public func close() {
        closeFile(descriptor)
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

    private func write(_ line: Data) {
        writeAll(String(decoding: line, as: UTF8.self) + "\n", to: descriptor)
    }

    /// The recording's first line.
    private struct Header: Encodable {
        var version, width, height, timestamp: Int
        var title: String
        var env: [String: String]
    }

    /// `[seconds, "o", text]`: output at a moment.
    private struct Event: Encodable {
        var seconds: Double
        var text: String

        func encode(to encoder: any Encoder) throws {
            var array = encoder.unkeyedContainer()
            try array.encode(seconds)
            try array.encode("o")
            try array.encode(text)
        }
    }

    /// Why the recording's file cannot be written, as the system says it.
    public struct RecordingError: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }
}

/// The C library's `close(2)`, which `CastRecorder.close` hides by name inside the type.
private func closeFile(_ descriptor: Int32) {
    close(descriptor)
}
