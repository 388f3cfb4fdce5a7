import FoundationEssentials
import OwnThread
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One end of a socket pair carrying lines of JSON each way (the client and `onboard-mock`):
/// lines are read on a thread of their own, since a read blocks and neither Swift's
/// cooperative threads nor Dispatch's few may; writes are whole lines, one at a time.
public final class LineChannel: Sendable {
    public let descriptor: Int32
    private let writing = Mutex(())
    /// Longest line read: a bigger one is not the other side speaking the protocol.
    public static let maximumLine = 8 << 20

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Each line as it comes, then the end when the other side closes (or breaks the protocol).
    public func lines() -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        let descriptor = descriptor
        let reading = OwnThread.detach {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            reading: while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending += chunk[0..<count]
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(Data(pending[..<end]))
                    pending.removeSubrange(...end)
                }
                if pending.count > Self.maximumLine { break reading }
            }
            continuation.finish()
        }
        // No thread to read on: the other side is as good as gone.
        if !reading { continuation.finish() }
        return stream
    }

    /// `value` as one line of JSON; false once the other side is gone.
    @discardableResult
    public func write<Value: Encodable>(_ value: Value) -> Bool {
        guard var bytes = try? JSONEncoder().encode(value) else { return false }
        bytes.append(UInt8(ascii: "\n"))
        return writing.withLock { _ in
            bytes.withUnsafeBytes { buffer in
                guard let start = buffer.baseAddress else { return true }
                var offset = 0
                while offset < buffer.count {
                    let written = send(descriptor, start + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return false }
                    offset += written
                }
                return true
            }
        }
    }
}
