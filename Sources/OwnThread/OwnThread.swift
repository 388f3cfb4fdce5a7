#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Work that blocks (a read on a socket, a libcurl request, waiting for a child) on a
/// thread of its own: neither Swift's cooperative threads nor Dispatch's few may block.
/// Foundation's `Thread` does the same, but brings Foundation to every program that
/// starts one (issue 50).
public enum OwnThread {
    /// Runs `body` on a new thread; false when none can be had (the process at its
    /// limit), and `body` does not run: the caller fails the work as a dropped connection
    /// would, where running it here would block the thread it was meant to spare.
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                // Always the box handed over below.
                guard let context else { return nil }
                let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
                body.run()
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
