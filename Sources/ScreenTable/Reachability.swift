/// Which screens a flow can arrive at, from its entry screens along every step and outcome.
public enum Reachability {
    public static func screens(from flow: Flow) -> Set<String> {
        var reached: Set<String> = []
        var pending = [flow.entry.firstLaunch] + [flow.entry.signedIn, flow.entry.signedOut, flow.entry.sessionEnded].compactMap { $0 }
        while let id = pending.popLast() {
            guard reached.insert(id).inserted, let screen = flow.screen(id) else { continue }
            pending.append(contentsOf: targets(of: screen))
        }
        return reached
    }

    /// The screens from which `target` can be reached (itself included), guards aside.
    public static func leadingTo(_ target: String, in flow: Flow) -> Set<String> {
        var found: Set<String> = [target]
        var changed = true
        while changed {
            changed = false
            for screen in flow.screens where !found.contains(screen.id) && targets(of: screen).contains(where: found.contains) {
                found.insert(screen.id)
                changed = true
            }
        }
        return found
    }

    /// The screens one screen can lead to directly; a relaunch there leads to its
    /// `resume_at`.
    public static func targets(of screen: Screen) -> [String] {
        var steps = screen.actions.map(\.step)
        if let choice = screen.choice { steps.append(choice.then) }
        var calls = screen.ownCalls
        var result: [String] = screen.route.map(\.go) + (screen.resumeAt.map { [$0] } ?? [])
        for step in steps {
            switch step {
            case .go(let target): result.append(target)
            case .call(let call): calls.append(call)
            case .branch(let branches): result.append(contentsOf: branches.map(\.go))
            case .back, .retry, .notice, .quit: break
            }
        }
        for call in calls {
            result.append(contentsOf: call.outcomes.values.compactMap(\.go))
        }
        return result
    }
}
