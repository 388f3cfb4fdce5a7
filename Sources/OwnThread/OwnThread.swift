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
    public static func detach(_ body: @escaping @Sendable () -> Void) {
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
            // No thread to be had (the process is at its limit): run here rather than never.
            Unmanaged<Body>.fromOpaque(box).takeRetainedValue().run()
            return
        }
        pthread_detach(thread)
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
