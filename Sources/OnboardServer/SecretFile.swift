import Foundation

/// A file that holds a secret (the admin token, a provider's client secret or private
/// key): read only when no one but its owner may read it, as ssh refuses a private key
/// others can read, with the command that fixes it.
public enum SecretFile {
    public struct Exposed: Error, CustomStringConvertible {
        public let path: String
        public let mode: Int
        public var description: String {
            "\(path) can be read by other users (mode \(String(mode, radix: 8))): run chmod 600 \(path)"
        }
    }

    /// The file's text; nil when it cannot be read. Throws `Exposed` when its group or
    /// others hold any permission on it.
    public static func read(_ path: String) throws -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = Int(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else { throw Exposed(path: path, mode: mode) }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }
}
