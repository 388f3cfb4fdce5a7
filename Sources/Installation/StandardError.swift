import Foundation

/// A line on standard error, written at once (not print's buffer).
public func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
