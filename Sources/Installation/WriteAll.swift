#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A line on standard error, written at once (not print's buffer).
public func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    line.withUnsafeBytes { bytes in
        guard let start = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(STDERR_FILENO, start + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
