import Synchronization

/// Whether a guest's draw of names is worth starting with plain adjective-noun pairs.
///
/// What it is for: there are only 1,600 plain pairs, and they are all taken after a few
/// hundred guests. From then on, each sign-in that tried them paid six failed reservations
/// (six index probes inside the store's one writer) before its numbered names took.
///
/// States: **plain** (the last guests were given a plain pair: every draw tries them) →
/// **numbered** (three guests in a row were given none: only every 64th draw tries them,
/// so a pair freed by a deleted account is offered again soon) → plain again as soon as
/// a guest is given one.
///
/// Without it: once the pairs run out, every guest's sign-in costs six wasted writes.
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
