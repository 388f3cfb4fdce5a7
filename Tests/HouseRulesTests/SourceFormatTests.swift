import Foundation
import TestSupport
import Testing

/// Every hand-written Swift file is as swift-format (the toolchain's) writes it under the
/// repository's `.swift-format` (140 columns): a diff shows what changed, not how it
/// was wrapped. The generated `Compiled*.swift` files are written by their own tests.
@Suite struct SourceFormatTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func swiftFiles(under folder: String) -> [String] {
        let base = root.appendingPathComponent(folder).path
        let found = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
        return found.filter {
            $0.hasSuffix(".swift") && !$0.contains("__Snapshots__") && !($0 as NSString).lastPathComponent.hasPrefix("Compiled")
        }
        .map { base + "/" + $0 }.sorted()
    }

    @Test(arguments: ["Sources", "Tests"]) func everyFileIsFormatted(folder: String) async throws {
        let files = Self.swiftFiles(under: folder)
        #expect(files.count > 20)
        // Formatted as copies in a folder of their own, with the same configuration.
        let scratch = NSTemporaryDirectory() + "onboard-format-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.copyItem(
            atPath: Self.root.appendingPathComponent("\(folder)/.swift-format").path, toPath: scratch + "/.swift-format")
        var copies: [(original: String, copy: String)] = []
        for (index, file) in files.enumerated() {
            let copy = scratch + "/\(index).swift"
            try FileManager.default.copyItem(atPath: file, toPath: copy)
            copies.append((file, copy))
        }
        let run = await Subprocess.run("/usr/bin/env", ["swift-format", "format", "-i"] + copies.map(\.copy))
        try #require(run.status == 0, "swift-format (the Swift toolchain's) could not run: \(run.output.suffix(400))")
        let unformatted = try copies.filter {
            try String(contentsOfFile: $0.original, encoding: .utf8) != String(contentsOfFile: $0.copy, encoding: .utf8)
        }
        #expect(
            unformatted.isEmpty,
            "not as swift-format writes them (run: swift-format format -i FILE): \(unformatted.map { $0.original.replacingOccurrences(of: Self.root.path + "/", with: "") })"
        )
    }

    /// One concept per file: a hand-written source file over 300 lines holds two, and a
    /// newcomer reads it whole to find either.
    @Test func noSourceFileIsOverThreeHundredLines() throws {
        let long = try Self.swiftFiles(under: "Sources").filter {
            try String(contentsOfFile: $0, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count > 301
        }
        #expect(long.isEmpty, "split by concept: \(long.map { $0.replacingOccurrences(of: Self.root.path + "/", with: "") })")
    }
}
