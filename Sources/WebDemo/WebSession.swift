import DemoSessions
import Dispatch
import Foundation
import PtyShim
import Synchronization

/// One visitor's Onboard in a browser: its program on a pseudo-terminal, the page that
/// drives it (one at a time: a page that reconnects takes the place of the one that
/// dropped), and watchers, who see every frame and whose keys do nothing.
///
/// The terminal's bytes go to every viewer as they come; a viewer that joins late asks
/// the program to repaint (Ctrl-L), so it starts from a whole screen.
final class WebSession: Sendable {
    /// What a viewer is sent.
    enum Output: Sendable, Equatable {
        case bytes([UInt8])
        case size(columns: Int, rows: Int)
        case watchers(Int)
        /// Another page took the session over: this one stops showing it.
        case replaced
        /// The program exited; `reason` when the server ended it (idle for too long).
        case ended(status: Int, reason: String?)
    }

    /// Resumes the session; watches it. Unguessable, never logged.
    let token: String
    let watchToken: String
    let address: String
    let process: SessionProcess
    private let folder: String
    /// The session's own copy of the terminal's leader: read on `reading`, written and
    /// closed on `writing`, so a write never meets a closed (or reused) descriptor.
    private let terminal: Int32
    private let reading = DispatchQueue(label: "onboard-web.read")
    private let writing = DispatchQueue(label: "onboard-web.write")
    private let state: Mutex<State>

    private struct State {
        var presenter: (id: Int, output: AsyncStream<Output>.Continuation)?
        var watchers: [Int: AsyncStream<Output>.Continuation] = [:]
        var nextViewer = 0
        var size: (columns: Int, rows: Int)
        var lastInput = ContinuousClock.now
        var detachedSince: ContinuousClock.Instant? = ContinuousClock.now
        var status: Int?
        /// Why the server hung the program up, for the page.
        var hungUpBecause: String?
        var closed = false
    }

    init(process: SessionProcess, folder: String, address: String, watchToken: String, columns: Int, rows: Int) {
        self.process = process
        self.folder = folder
        self.address = address
        self.watchToken = watchToken
        token = Tokens.make()
        terminal = dup(process.leader)
        state = Mutex(State(size: (columns, rows)))
    }

    /// Starts reading the terminal, and the reaper; `ended` runs once the program exited.
    func run(ended: @escaping @Sendable (WebSession) -> Void) {
        _ = fcntl(terminal, F_SETFL, fcntl(terminal, F_GETFL) | O_NONBLOCK)
        let source = DispatchSource.makeReadSource(fileDescriptor: terminal, queue: reading)
        source.setEventHandler { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(terminal, &buffer, buffer.count)
            if count > 0 {
                broadcast(.bytes(Array(buffer[..<count])))
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                // EIO: the program exited (nothing holds its terminal open any more).
                source.cancel()
            }
        }
        source.setCancelHandler { [self] in
            writing.async { [self] in
                state.withLock { $0.closed = true }
                close(terminal)
            }
        }
        source.resume()
        let process = self.process
        Thread { [self] in
            let status = process.waitForExit()
            try? FileManager.default.removeItem(atPath: folder)
            let (viewers, reason) = state.withLock { state in
                state.status = status
                defer { state.presenter = nil; state.watchers = [:] }
                return ((state.presenter.map { [$0.output] } ?? []) + Array(state.watchers.values), state.hungUpBecause)
            }
            for viewer in viewers {
                viewer.yield(.ended(status: status, reason: reason))
                viewer.finish()
            }
            ended(self)
        }.start()
    }

    var pid: pid_t { process.pid }

    // Viewers

    /// The page that drives the session from now on; a page already attached is told it
    /// was replaced. Returns nil once the session has ended.
    func attachPresenter() -> (id: Int, output: AsyncStream<Output>)? {
        let (stream, continuation) = AsyncStream<Output>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let attached: (id: Int, previous: AsyncStream<Output>.Continuation?)? = state.withLock { state in
            guard state.status == nil else { return nil }
            let previous = state.presenter?.output
            state.nextViewer += 1
            state.presenter = (state.nextViewer, continuation)
            state.detachedSince = nil
            state.lastInput = .now
            return (state.nextViewer, previous)
        }
        guard let attached else { return nil }
        attached.previous?.yield(.replaced)
        attached.previous?.finish()
        continuation.yield(.watchers(watcherCount))
        return (attached.id, stream)
    }

    func attachWatcher() -> (id: Int, output: AsyncStream<Output>)? {
        let (stream, continuation) = AsyncStream<Output>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let attached: (id: Int, size: (columns: Int, rows: Int))? = state.withLock { state in
            guard state.status == nil else { return nil }
            state.nextViewer += 1
            state.watchers[state.nextViewer] = continuation
            return (state.nextViewer, state.size)
        }
        guard let attached else { return nil }
        continuation.yield(.size(columns: attached.size.columns, rows: attached.size.rows))
        presenterOutput?.yield(.watchers(watcherCount))
        repaint()
        return (attached.id, stream)
    }

    /// A viewer's connection closed. The presenter's leaving starts the grace time in
    /// which a reconnect finds the session as it was.
    func detach(_ id: Int) {
        let wasWatcher = state.withLock { state in
            if state.presenter?.id == id {
                state.presenter = nil
                state.detachedSince = .now
                return false
            }
            return state.watchers.removeValue(forKey: id) != nil
        }
        if wasWatcher { presenterOutput?.yield(.watchers(watcherCount)) }
    }

    private var presenterOutput: AsyncStream<Output>.Continuation? { state.withLock { $0.presenter?.output } }

    var watcherCount: Int { state.withLock { $0.watchers.count } }

    private func broadcast(_ output: Output) {
        let viewers = state.withLock { state in (state.presenter.map { [$0.output] } ?? []) + Array(state.watchers.values) }
        for viewer in viewers { viewer.yield(output) }
    }

    // The terminal

    /// Keys from the presenter's page (a watcher's are never passed here).
    func type(_ bytes: [UInt8], from viewer: Int) {
        guard state.withLock({ state in
            guard state.presenter?.id == viewer else { return false }
            state.lastInput = .now
            return true
        }) else { return }
        write(bytes)
    }

    /// The page's terminal changed size: the program's does, and watchers follow.
    func resize(columns: Int, rows: Int, from viewer: Int) {
        let size = (columns: min(max(columns, 2), 500), rows: min(max(rows, 2), 200))
        let watchers: [AsyncStream<Output>.Continuation]? = state.withLock { state in
            guard state.presenter?.id == viewer else { return nil }
            state.size = size
            return Array(state.watchers.values)
        }
        guard let watchers else { return }
        writing.async { [self] in
            if !state.withLock({ $0.closed }) { _ = onboard_pty_resize(terminal, Int32(size.rows), Int32(size.columns)) }
        }
        for watcher in watchers { watcher.yield(.size(columns: size.columns, rows: size.rows)) }
    }

    /// Ctrl-L: the program draws its whole screen again, for a viewer that joined late.
    func repaint() {
        write([0x0C])
    }

    private func write(_ bytes: [UInt8]) {
        writing.async { [self] in
            var offset = 0
            while offset < bytes.count, !state.withLock({ $0.closed }) {
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

    // Its life

    /// Why it should end now, if it should: no page for longer than `grace`, or no key
    /// for longer than `idle`.
    func abandonment(grace: Duration, idle: Duration, now: ContinuousClock.Instant = .now) -> String? {
        state.withLock { state in
            guard state.status == nil else { return nil }
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

/// Session and watch tokens: 32 random bytes, base64url.
enum Tokens {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
