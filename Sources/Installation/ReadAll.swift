#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Everything a descriptor gives until its end (a script piped in): what Foundation's
/// `FileHandle.readDataToEndOfFile` did, without Foundation.
public func readAll(from descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = read(descriptor, &chunk, chunk.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return bytes }
        bytes += chunk[..<count]
    }
}

/// Everything in the file at `path`, a pipe's too (`--keys <(…)`, `/dev/stdin`), which
/// `FileManager.contents(atPath:)` does not read; nil when it cannot be opened.
public func readAll(atPath path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return readAll(from: descriptor)
}
