import ArgumentParser
import Foundation
import Installation

/// Graphviz's `dot`, for `onboard graph --format svg`.
enum Graphviz {
    /// `dot -Tsvg`, found on PATH.
    static func svg(_ dot: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard
            let program = path.split(separator: ":").map({ "\($0)/dot" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            printError(
                """
                onboard: --format svg needs Graphviz's dot, which is not installed.
                Install it with: sudo apt-get install graphviz (Debian, Ubuntu), sudo dnf install graphviz (Fedora) \
                or brew install graphviz (macOS). --format dot and --format mermaid need nothing.
                """)
            throw ExitCode(1)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-Tsvg"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // dot reads all its input before it writes: no deadlock on a full pipe.
        input.fileHandleForWriting.write(Data(dot.utf8))
        try input.fileHandleForWriting.close()
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            printError("onboard: Graphviz's dot failed (exit status \(process.terminationStatus)).")
            throw ExitCode(1)
        }
        return String(decoding: svg, as: UTF8.self)
    }
}
