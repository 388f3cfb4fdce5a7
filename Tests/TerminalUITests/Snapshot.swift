import Foundation
import Testing
import TerminalUI

/// Compares a frame's text with a file in __Snapshots__. A missing file (or
/// ONBOARD_RECORD_SNAPSHOTS=1) records it and fails, so a new snapshot is looked at once.
/// `themes`: each also gets a layer showing how it styles every cell.
func assertSnapshot(_ frame: Frame, named name: String, themes: [Theme] = [], sourceLocation: SourceLocation = #_sourceLocation) {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let file = folder.appendingPathComponent("\(name).txt")
    // A frame of the exact size, so trailing rows and width changes show up.
    var actual = "size \(frame.width)x\(frame.height)\n" + frame.lines.map { $0 + "|" }.joined(separator: "\n") + "\n"
    for theme in themes { actual += styleLayer(frame, theme: theme) }
    let record = ProcessInfo.processInfo.environment["ONBOARD_RECORD_SNAPSHOTS"] == "1"
    guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? actual.write(to: file, atomically: true, encoding: .utf8)
        Issue.record("Recorded snapshot \(name); check it and run again.", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == expected, "snapshot \(name) differs:\n\(actual)", sourceLocation: sourceLocation)
}

/// How a theme styles each cell: `.` for the terminal's plain text, a letter per style
/// (explained below the layer). Shows, without colour, that focus and errors stand out.
func styleLayer(_ frame: Frame, theme: Theme) -> String {
    var letters: [String: Character] = [:]
    var legend: [String] = []
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    var rows: [String] = []
    for y in 0..<frame.height {
        var row = ""
        for x in 0..<frame.width {
            let key = describe(theme.style(frame[x, y].role))
            if key.isEmpty {
                row.append(".")
                continue
            }
            if letters[key] == nil {
                letters[key] = alphabet[min(letters.count, alphabet.count - 1)]
                legend.append("\(letters[key]!) = \(key)")
            }
            row.append(letters[key]!)
        }
        rows.append(row)
    }
    return "theme \(theme.name)\n" + rows.joined(separator: "\n") + "\n" + legend.joined(separator: "\n") + "\n"
}

private func describe(_ style: Theme.Style) -> String {
    var parts: [String] = []
    if let foreground = style.foreground { parts.append("fg \(foreground)") }
    if let background = style.background { parts.append("bg \(background)") }
    if style.bold { parts.append("bold") }
    if style.underline { parts.append("underline") }
    if style.reverse { parts.append("reverse") }
    if style.dim { parts.append("dim") }
    return parts.joined(separator: ", ")
}
