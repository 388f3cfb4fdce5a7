#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A line on standard error, written at once (not print's buffer).
public func printError(_ message: String) {
    writeAll(message + "\n", to: STDERR_FILENO)
}

/// All of `text` to a descriptor, at once (not print's buffer), as far as it takes it:
/// what Foundation's `FileHandle.write` did, without Foundation.
public func writeAll(_ text: String, to descriptor: Int32) {
    Array(text.utf8).withUnsafeBytes { _ = writeAll($0, to: descriptor) }
}

/// All of `bytes` to a descriptor, past short writes and interruptions; false when it
/// stops taking them (`errno` says why).
public func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    guard let start = bytes.baseAddress else { return true }
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, start + offset, bytes.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
    }
    return true
}
