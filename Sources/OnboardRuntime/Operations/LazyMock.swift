import EmbeddedMock
import ServiceAPI
import ServiceClient
import Synchronization

/// The embedded mock, opened on its first call. On a first run its SQLite file (schema,
/// keys) is made after the first screen instead of before it; a file that exists is
/// opened at once, so a damaged one is reported on the first screen.
public final class LazyMock: AuthServiceDecorator {
    private let open: @Sendable () throws -> InProcessTransport
    private let opened = Mutex<InProcessTransport?>(nil)

    public init(open: @escaping @Sendable () throws -> InProcessTransport) {
        self.open = open
    }

    public convenience init(opened transport: InProcessTransport) {
        self.init(open: { transport })
        opened.withLock { $0 = transport }
    }

    /// The mock, opened now if it was not yet.
    public func transport() throws -> InProcessTransport {
        try opened.withLock { opened in
            if let opened { return opened }
            let made = try open()
            opened = made
            return made
        }
    }

    /// `around` opened it before any call reaches `base`.
    public var base: any AuthService { opened.withLock { $0! } }

    public func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T {
        _ = try transport()
        return try await call()
    }
}
