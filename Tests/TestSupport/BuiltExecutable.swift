import Foundation

/// An executable of this package, as SwiftPM built it beside the test bundle.
public enum BuiltExecutable {
    public static func path(_ name: String) -> String {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return package.appendingPathComponent(".build/debug/" + name).path
    }
}
