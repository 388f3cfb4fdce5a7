import Synchronization

/// Whether a guest's draw is worth starting with plain adjective-noun pairs. All 1,600 are
/// taken after a few hundred guests; from then on each sign-in paid six failed
/// reservations (six index probes inside the one writer) before its numbered names took.
/// After three guests in a row were given no plain pair, only every 64th draw tries them
/// again, so a pair freed by a deleted account is offered again soon after.
final class PlainPairs: Sendable {
    private struct State {
        var guestsWithout = 0
        var drawsSince = 0
    }
    private let state = Mutex(State())

    /// Whether the next draw should start with plain pairs.
    func worthDrawing() -> Bool {
        state.withLock { state in
            guard state.guestsWithout >= 3 else { return true }
            state.drawsSince += 1
            return state.drawsSince % 64 == 0
        }
    }

    /// What a new guest was given: a plain pair among them means there are more.
    func record(_ names: [String]) {
        let plain = names.contains(where: NameDraw.isPlainPair)
        state.withLock { state in
            state.guestsWithout = plain ? 0 : state.guestsWithout + 1
        }
    }
}
