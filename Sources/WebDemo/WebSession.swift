import DemoSessions
import Dispatch
import Foundation
import OwnThread
import PtyShim
import Synchronization

/// One visitor's Onboard in a browser: its program on a pseudo-terminal, and who sees it
/// (`SessionViewers`: the page that drives it, and watchers). It ends when the program
/// exits, or when the server hangs it up (no page came back, no key pressed).
final class WebSession: Sendable {
    /// Resumes the session: unguessable, never logged.
    let token: String
    let process: SessionProcess
    let viewers: SessionViewers
    private let folder: String
    /// The session's own copy of the terminal's leader: read here, written and closed by
    /// `writer`.
    private let terminal: Int32
    private let writer: TerminalWriter
    private let state = Mutex(State())

    private struct State {
        var lastInput = ContinuousClock.now
        var detachedSince: ContinuousClock.Instant? = ContinuousClock.now
        var exited = false
        /// Why the server hung the program up, for the page.
        var hungUpBecause: String?
    }

    init(process: SessionProcess, folder: String, watchToken: String, columns: Int, rows: Int) {
        self.process = process
        self.folder = folder
        token = Tokens.make()
        terminal = fcntl(process.leader, F_DUPFD_CLOEXEC, 0)
        let writer = TerminalWriter(terminal)
        self.writer = writer
        viewers = SessionViewers(columns: columns, rows: rows, watchToken: watchToken, drivenByAPage: true) { writer.write([0x0C]) }
    }

    var watchToken: String { viewers.watchToken }
    var pid: pid_t { process.pid }

    /// Starts reading the terminal, and the reaper; `ended` runs once the program exited.
    /// `stopping` says why every session is being hung up, when the server stops.
    func run(stopping: @escaping @Sendable () -> String?, ended: @escaping @Sendable (WebSession) -> Void) {
        _ = fcntl(terminal, F_SETFL, fcntl(terminal, F_GETFL) | O_NONBLOCK)
        // A thread of its own that waits on the terminal, not a dispatch read source:
        // libdispatch's epoll bookkeeping on Linux crashes as sources are torn down when
        // hundreds come and go (500 sessions crashed the server as it stopped;
        // swift-corelibs-libdispatch #949, swift-corelibs-foundation #3276).
        let reading = OwnThread.detach { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var ready = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
            while true {
                let count = read(terminal, &buffer, buffer.count)
                if count > 0 {
                    viewers.show(Array(buffer[..<count]))
                } else if count < 0, errno == EAGAIN || errno == EINTR {
                    _ = poll(&ready, 1, -1)
                } else {
                    break  // EIO: the program exited (nothing holds its terminal open any more)
                }
            }
            writer.close()
        }
        if !reading { writer.close() }
        let process = self.process
        Thread { [self] in
            let status = process.waitForExit()
            try? FileManager.default.removeItem(atPath: folder)
            let reason = state.withLock { state in
                state.exited = true
                return state.hungUpBecause ?? stopping()
            }
            viewers.end(status: status, reason: reason)
            ended(self)
        }.start()
    }

    /// The page that drives the session now; its leaving starts the grace time in which a
    /// reconnect finds the session as it was.
    func attachPresenter() -> SessionViewers.Viewer? {
        guard let viewer = viewers.attachPresenter() else { return nil }
        state.withLock { state in
            state.detachedSince = nil
            state.lastInput = .now
        }
        return viewer
    }

    func detach(_ id: Int) {
        if viewers.detach(id) { state.withLock { $0.detachedSince = .now } }
    }

    // The terminal

    /// Keys from the presenter's page (a watcher's are never passed here).
    func type(_ bytes: [UInt8], from viewer: Int) {
        guard viewers.isPresenter(viewer) else { return }
        state.withLock { $0.lastInput = .now }
        writer.write(bytes)
    }

    /// The page's terminal changed size: the program's does, and watchers follow.
    func resize(columns: Int, rows: Int, from viewer: Int) {
        guard viewers.isPresenter(viewer) else { return }
        let size = (columns: min(max(columns, 2), 500), rows: min(max(rows, 2), 200))
        writer.resize(columns: size.columns, rows: size.rows)
        viewers.resized(columns: size.columns, rows: size.rows)
    }

    /// Ctrl-L: the program draws its whole screen again, for a page that came back.
    func repaint() {
        writer.write([0x0C])
    }

    // Its life

    /// Why it should end now, if it should: no page for longer than `grace`, or no key
    /// for longer than `idle`.
    func abandonment(grace: Duration, idle: Duration, now: ContinuousClock.Instant = .now) -> String? {
        state.withLock { state in
            guard !state.exited else { return nil }
            if let since = state.detachedSince, now - since > grace { return "no page came back to it in \(Self.words(grace))" }
            guard now - state.lastInput > idle else { return nil }
            return "no key was pressed for \(Self.words(idle))"
        }
    }

    /// "15 minutes", "2 seconds".
    static func words(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        return seconds % 60 == 0 ? "\(seconds / 60) minute\(seconds == 60 ? "" : "s")" : "\(seconds) second\(seconds == 1 ? "" : "s")"
    }

    /// The program is hung up, as a closed SSH connection would, and saves and exits.
    func hangUp(because reason: String? = nil) {
        state.withLock { $0.hungUpBecause = $0.hungUpBecause ?? reason }
        process.hangUp()
    }
}

/// Writes to a session's terminal on a queue of its own, and closes it there, so a write
/// never meets a closed (or reused) descriptor; resizes it too.
final class TerminalWriter: Sendable {
    private let terminal: Int32
    private let queue = DispatchQueue(label: "onboard-web.write")
    private let closed = Mutex(false)

    init(_ terminal: Int32) {
        self.terminal = terminal
    }

    func write(_ bytes: [UInt8]) {
        queue.async { [self] in
            var offset = 0
            while offset < bytes.count, !closed.withLock({ $0 }) {
                let written = bytes[offset...].withUnsafeBytes { Foundation.write(terminal, $0.baseAddress, $0.count) }
                if written > 0 {
                    offset += written
                } else if errno == EAGAIN || errno == EINTR {
                    // The program has not read what came before (a huge paste): wait for it.
                    usleep(2_000)
                } else {
                    return
                }
            }
        }
    }

    func resize(columns: Int, rows: Int) {
        queue.async { [self] in
            if !closed.withLock({ $0 }) { _ = onboard_pty_resize(terminal, Int32(rows), Int32(columns)) }
        }
    }

    func close() {
        queue.async { [self] in
            closed.withLock { $0 = true }
            Foundation.close(terminal)
        }
    }
}
