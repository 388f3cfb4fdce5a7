import Foundation
import Synchronization

/// The sessions running, for `--max-sessions` and for hanging every one up when the
/// server stops.
final class SessionRegistry: Sendable {
    private struct State {
        var reserved = 0
        var running: [pid_t: SessionProcess] = [:]
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Holds a place for a new session; false when the demo is full.
    func reserve() -> Bool {
        state.withLock { state in
            guard state.reserved < limit else { return false }
            state.reserved += 1
            return true
        }
    }

    func started(_ process: SessionProcess) {
        state.withLock { $0.running[process.pid] = process }
    }

    /// A session ended (or never started): its place is free again.
    func ended(_ pid: pid_t?) {
        state.withLock { state in
            if let pid { state.running[pid] = nil }
            state.reserved -= 1
        }
    }

    var count: Int { state.withLock { $0.reserved } }

    func hangUpAll() {
        for process in state.withLock({ Array($0.running.values) }) { process.hangUp() }
    }

    func forceQuitAll() {
        for process in state.withLock({ Array($0.running.values) }) { process.forceQuit() }
    }
}
