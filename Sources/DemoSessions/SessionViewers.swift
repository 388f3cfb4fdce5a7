import Foundation
import Synchronization

/// Who sees a demo session: the page that drives it (serve-web; one at a time, a page
/// that reconnects takes the place of the one that dropped) and watchers (any session,
/// web or SSH), who see every frame and whose keys do nothing. The terminal's bytes go
/// to every viewer as they come; a viewer that joins late asks the program to repaint
/// (Ctrl-L), so it starts from a whole screen.
public final class SessionViewers: Sendable {
    /// What a viewer is sent.
    public enum Output: Sendable, Equatable {
        case bytes([UInt8])
        case size(columns: Int, rows: Int)
        case watchers(Int)
        /// Another page took the session over: this one stops showing it.
        case replaced
        /// The program exited; `reason` when the server ended it (idle for too long).
        case ended(status: Int, reason: String?)
    }

    public typealias Viewer = (id: Int, output: AsyncStream<Output>)

    /// Watches the session: unguessable, never logged.
    public let watchToken: String
    private let repaint: @Sendable () -> Void
    private let state: Mutex<State>

    private struct State {
        var presenter: (id: Int, output: AsyncStream<Output>.Continuation)?
        var watchers: [Int: AsyncStream<Output>.Continuation] = [:]
        var nextViewer = 0
        var size: (columns: Int, rows: Int)
        var ended = false
        /// What the program drew before its first page attached (kept for that page), and
        /// whether more came than is kept (the page then asks for a repaint); nil once a
        /// page has attached, or for a session no page drives (serve-ssh's).
        var beforeFirstPage: (bytes: [UInt8], overflowed: Bool)?
    }

    /// What is kept for the first page at most; a program's first screen is a few KiB.
    static let keptForTheFirstPage = 1 << 18

    /// `repaint` asks the program to draw its whole screen again (Ctrl-L into its terminal).
    /// `drivenByAPage`: a page will attach as the presenter (serve-web), and what the
    /// program draws before it does is kept for it: the program may draw its first screen
    /// before the server has attached the page that asked for it.
    public init(
        columns: Int, rows: Int, watchToken: String = Tokens.make(), drivenByAPage: Bool = false,
        repaint: @escaping @Sendable () -> Void
    ) {
        self.watchToken = watchToken
        self.repaint = repaint
        state = Mutex(State(size: (columns, rows), beforeFirstPage: drivenByAPage ? ([], false) : nil))
    }

    /// The page that drives the session from now on; a page already attached is told it
    /// was replaced. nil once the session has ended.
    public func attachPresenter() -> Viewer? {
        let (stream, continuation) = Self.stream()
        continuation.yield(.watchers(watcherCount))
        let attached: (id: Int, previous: AsyncStream<Output>.Continuation?, missed: Bool)? = state.withLock { state in
            guard !state.ended else { return nil }
            let previous = state.presenter?.output
            state.nextViewer += 1
            state.presenter = (state.nextViewer, continuation)
            // Given while the lock is held, so nothing drawn after it comes first.
            let kept = state.beforeFirstPage
            if let kept, !kept.bytes.isEmpty { continuation.yield(.bytes(kept.bytes)) }
            state.beforeFirstPage = nil
            return (state.nextViewer, previous, kept?.overflowed == true)
        }
        guard let attached else { return nil }
        attached.previous?.yield(.replaced)
        attached.previous?.finish()
        if attached.missed { repaint() }
        return (attached.id, stream)
    }

    /// A watcher: the session's size first, then a whole screen, then every frame.
    public func attachWatcher() -> Viewer? {
        let (stream, continuation) = Self.stream()
        let attached: (id: Int, size: (columns: Int, rows: Int))? = state.withLock { state in
            guard !state.ended else { return nil }
            state.nextViewer += 1
            state.watchers[state.nextViewer] = continuation
            return (state.nextViewer, state.size)
        }
        guard let attached else { return nil }
        continuation.yield(.size(columns: attached.size.columns, rows: attached.size.rows))
        presenter?.yield(.watchers(watcherCount))
        repaint()
        return (attached.id, stream)
    }

    /// A viewer's connection closed; true when it was the presenter.
    @discardableResult
    public func detach(_ id: Int) -> Bool {
        let (wasPresenter, wasWatcher) = state.withLock { state in
            if state.presenter?.id == id {
                state.presenter = nil
                return (true, false)
            }
            return (false, state.watchers.removeValue(forKey: id) != nil)
        }
        if wasWatcher { presenter?.yield(.watchers(watcherCount)) }
        return wasPresenter
    }

    public func isPresenter(_ id: Int) -> Bool { state.withLock { $0.presenter?.id == id } }

    public var watcherCount: Int { state.withLock { $0.watchers.count } }

    /// The program's output, to everyone (and kept for the first page, until it comes).
    public func show(_ bytes: [UInt8]) {
        let viewers = state.withLock { state in
            if state.presenter == nil, var kept = state.beforeFirstPage {
                kept.overflowed = kept.overflowed || kept.bytes.count + bytes.count > Self.keptForTheFirstPage
                kept.bytes = kept.overflowed ? [] : kept.bytes + bytes
                state.beforeFirstPage = kept
            }
            return (state.presenter.map { [$0.output] } ?? []) + Array(state.watchers.values)
        }
        for viewer in viewers { viewer.yield(.bytes(bytes)) }
    }

    /// The terminal's size changed: watchers follow it.
    public func resized(columns: Int, rows: Int) {
        let watchers = state.withLock { state in
            state.size = (columns, rows)
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield(.size(columns: columns, rows: rows)) }
    }

    /// The program exited: every viewer is told, and their streams end.
    public func end(status: Int, reason: String?) {
        let viewers = state.withLock { state in
            state.ended = true
            defer { state.presenter = nil; state.watchers = [:] }
            return (state.presenter.map { [$0.output] } ?? []) + Array(state.watchers.values)
        }
        for viewer in viewers {
            viewer.yield(.ended(status: status, reason: reason))
            viewer.finish()
        }
    }

    private var presenter: AsyncStream<Output>.Continuation? { state.withLock { $0.presenter?.output } }

    private static func stream() -> (AsyncStream<Output>, AsyncStream<Output>.Continuation) {
        AsyncStream<Output>.makeStream(bufferingPolicy: .bufferingNewest(4096))
    }
}

/// The sessions that can be watched, by watch token: shared by a demo server and the web
/// server that shows its watch links.
public final class WatchDirectory: Sendable {
    private let sessions = Mutex<[String: SessionViewers]>([:])

    public init() {}

    public func add(_ viewers: SessionViewers) {
        sessions.withLock { $0[viewers.watchToken] = viewers }
    }

    public func remove(_ viewers: SessionViewers) {
        _ = sessions.withLock { $0.removeValue(forKey: viewers.watchToken) }
    }

    public func viewers(watching token: String) -> SessionViewers? {
        sessions.withLock { $0[token] }
    }
}

/// Session and watch tokens: 32 random bytes, base64url.
public enum Tokens {
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
