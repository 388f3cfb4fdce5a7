import FoundationEssentials
import ServiceAPI
import ServiceClient
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The client's clock, shifted by `--clock-offset` or the QA console. One instance is
/// shared by the runner, the calls and the embedded mock (each call carries its offset),
/// so "25h later" expires tokens on both sides at once.
public final class RuntimeClock: Sendable {
    private let offset: Mutex<Int64>

    public init(offsetSeconds: Int64 = 0) {
        offset = Mutex(offsetSeconds)
    }

    public var offsetSeconds: Int64 {
        get { offset.withLock { $0 } }
        set { offset.withLock { $0 = newValue } }
    }

    /// Milliseconds since 1970, shifted.
    public func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000 + offsetSeconds * 1000
    }

    /// Seconds since 1970, shifted: the embedded mock's time.
    public func now() -> Int64 {
        nowMilliseconds() / 1000
    }
}
