import Foundation

/// Whether this machine can draw for a client's `TERM`: a client's terminal type this
/// machine has no description of falls back to xterm-256color, which nearly every
/// terminal emulator understands.
public enum Terminfo {
    public static let fallback = "xterm-256color"

    public static func usable(_ term: String) -> String {
        knows(term) ? term : fallback
    }

    public static func knows(_ term: String) -> Bool {
        guard let first = term.first, !term.contains("/"), first != ".", let code = first.asciiValue else { return false }
        let environment = ProcessInfo.processInfo.environment
        let folders =
            [environment["TERMINFO"], environment["HOME"].map { $0 + "/.terminfo" }].compactMap { $0 }
            + ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/usr/lib/terminfo"]
        let subfolders = [String(first), String(format: "%02x", code)]
        return folders.contains { folder in
            subfolders.contains { FileManager.default.fileExists(atPath: "\(folder)/\($0)/\(term)") }
        }
    }
}
