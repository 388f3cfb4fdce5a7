import Foundation

/// The terminal description a web session's program draws for: xterm-256color as this
/// machine describes it, less what xterm.js 3 (Debian's node-xterm) draws wrongly. Its
/// "scroll down" (SD, `CSI n T`, terminfo's `rin`) opens the blank lines at the bottom of
/// the scroll region instead of the top, so ncurses' scrolling optimisation left lines
/// of a screen blank; without `rin`, ncurses scrolls with `ESC M` (`ri`), which it draws
/// right. Compiled with `tic` into a folder of the server's, named as the system's entry,
/// and given to sessions as `TERMINFO`.
enum XtermTerminfo {
    static let name = "xterm-256color"
    static let dropped = ["rin"]

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes the description under `folder`; returns the folder for `TERMINFO`.
    static func install(under folder: String) throws -> String {
        let target = folder + "/web-terminfo"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let described = try run("/usr/bin/infocmp", ["-1", "-x", name])
        let source = described.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !dropped.contains { trimmed.hasPrefix($0 + "=") || trimmed == $0 + "," }
        }.joined(separator: "\n")
        let sourcePath = target + "/xterm-js.terminfo"
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        _ = try run("/usr/bin/tic", ["-x", "-o", target, sourcePath])
        return target
    }

    private static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        do {
            try process.run()
        } catch {
            throw Failed(description: "cannot run \(program) (\(error)): apt-get install ncurses-bin")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "\(program) \(arguments.joined(separator: " ")) failed (exit \(process.terminationStatus))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
