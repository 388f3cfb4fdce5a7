import Foundation
import Synchronization

/// The sessions running, for `--max-sessions` and for hanging every one up when the
/// server (SSH or web) stops.
public final class SessionRegistry: Sendable {
    private struct State {
        var reserved = 0
        var running: [pid_t: SessionProcess] = [:]
        var stopping: String?
    }

    public let limit: Int
    private let state = Mutex(State())

    /// What each person is told when the server stops.
    public static let serverStopped = "the demo server was stopped"

    public init(limit: Int) {
        self.limit = limit
    }

    /// Holds a place for a new session; false when the demo is full.
    public func reserve() -> Bool {
        state.withLock { state in
            guard state.reserved < limit else { return false }
            state.reserved += 1
            return true
        }
    }

    public func started(_ process: SessionProcess) {
        state.withLock { $0.running[process.pid] = process }
    }

    /// A session ended (or never started): its place is free again.
    public func ended(_ pid: pid_t?) {
        state.withLock { state in
            if let pid { state.running[pid] = nil }
            state.reserved -= 1
        }
    }

    public var count: Int { state.withLock { $0.reserved } }

    /// Why every session is being hung up (the server is stopping), for the people in them.
    public var stopping: String? { state.withLock { $0.stopping } }

    public func hangUpAll() {
        for process in state.withLock({ Array($0.running.values) }) { process.hangUp() }
    }

    public func forceQuitAll() {
        for process in state.withLock({ Array($0.running.values) }) { process.forceQuit() }
    }
}

extension SessionRegistry {
    /// Hangs every session up, waits up to five seconds for each program to save and
    /// exit, then kills what is left and waits for the reapers; `because` is said to each.
    public func endAll(because reason: String? = nil) {
        state.withLock { $0.stopping = $0.stopping ?? reason }
        hangUpAll()
        let deadline = Date().addingTimeInterval(5)
        while count > 0, Date() < deadline { usleep(20_000) }
        forceQuitAll()
        while count > 0 { usleep(20_000) }
    }
}
