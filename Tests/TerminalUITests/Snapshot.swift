import Foundation
import Testing
import TerminalUI

/// Compares a frame's text with a file in __Snapshots__. A missing file (or
/// ONBOARD_RECORD_SNAPSHOTS=1) records it and fails, so a new snapshot is looked at once.
func assertSnapshot(_ frame: Frame, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let file = folder.appendingPathComponent("\(name).txt")
    // A frame of the exact size, so trailing rows and width changes show up.
    let actual = "size \(frame.width)x\(frame.height)\n" + frame.lines.map { $0 + "|" }.joined(separator: "\n") + "\n"
    let record = ProcessInfo.processInfo.environment["ONBOARD_RECORD_SNAPSHOTS"] == "1"
    guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? actual.write(to: file, atomically: true, encoding: .utf8)
        Issue.record("Recorded snapshot \(name); check it and run again.", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == expected, "snapshot \(name) differs:\n\(actual)", sourceLocation: sourceLocation)
}
