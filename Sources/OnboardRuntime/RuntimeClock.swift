import Foundation

/// The client's clock, shifted by `--clock-offset` (the embedded mock gets the same
/// offset, so "25h later" expires tokens on both sides).
public struct RuntimeClock: Sendable {
    public var offsetSeconds: Int64

    public init(offsetSeconds: Int64 = 0) {
        self.offsetSeconds = offsetSeconds
    }

    /// Milliseconds since 1970, shifted.
    public func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000 + offsetSeconds * 1000
    }
}
