import FlowEngine
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where work finished off the UI thread leaves its result. Posting also writes a byte
/// to a pipe, which wakes the UI thread out of `poll()`; signal handlers write their
/// signal number to the same pipe.
public final class Mailbox: Sendable {
    private let events = Mutex<[FlowEvent]>([])
    public let readDescriptor: Int32
    public let writeDescriptor: Int32

    public init() {
        var descriptors: [Int32] = [0, 0]
        pipe(&descriptors)
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    public func post(_ event: FlowEvent) {
        events.withLock { $0.append(event) }
        var byte: UInt8 = 0
        _ = write(writeDescriptor, &byte, 1)
    }

    public func drain() -> [FlowEvent] {
        events.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }

    /// Reads the wake bytes; returns the signal numbers among them (0 is a plain wake).
    public func readSignals() -> [Int32] {
        var signals: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readDescriptor, &buffer, buffer.count)
            if count <= 0 { break }
            signals += buffer[0..<count].filter { $0 != 0 }.map(Int32.init)
        }
        return signals
    }
}
