import ServiceAPI

/// The service's time source. The offset lets QA run "as if later" to expire tokens.
public protocol ServiceClock: Sendable {
    /// Seconds since 1970.
    func now() -> Int64
}

public struct SystemClock: ServiceClock {
    public var offset: Int64

    public init(offset: Int64 = 0) {
        self.offset = offset
    }

    public func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) + offset
    }
}

/// A clock QA can move while the service runs (`onboard-server --dev`).
public final class AdjustableClock: ServiceClock {
    private let offset: Mutex<Int64>

    public init(offset: Int64 = 0) {
        self.offset = Mutex(offset)
    }

    public var offsetSeconds: Int64 {
        get { offset.withLock { $0 } }
        set { offset.withLock { $0 = newValue } }
    }

    public func now() -> Int64 {
        SystemClock(offset: offsetSeconds).now()
    }
}

import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
