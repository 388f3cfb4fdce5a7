import ScreenTable
import Suggestion
import Yams

/// What a screen can do: actions, checklist tasks, choices, steps, calls with their
/// outcomes, branches, guards and operations.
extension FlowReader {
    mutating func readAction(_ node: Node, in context: String) -> Action? {
        guard let map = mapping(node, "an action") else { return nil }
        checkKeys(map, allowed: FilePart.action.names, in: "an action of \(context)")
        guard let label = string(map, "label"), !label.isEmpty else {
            problems.append(Problem("an action of \(context) has no 'label'", at: location(node)))
            return nil
        }
        var key: Character?
        if let keyText = string(map, "key") {
            if keyText.count == 1 {
                key = keyText.first
            } else {
                problems.append(Problem("'key' must be one character, not '\(keyText)'", at: location(map["key"]!)))
            }
        }
        guard let step = readStep(map, node: node, in: "action '\(label)' of \(context)") else { return nil }
        let when = map["when"].flatMap { readGuard($0) }
        var action = Action(label: label, key: key, step: step, when: when, location: location(node))
        if let sets = map["set"], let setMap = mapping(sets, "'set'") {
            for (key, value) in setMap {
                guard let name = key.string, let text = value.scalar?.string else {
                    problems.append(Problem("'set' maps context keys to text", at: location(key)))
                    continue
                }
                action.sets[name] = text
            }
        }
        action.validates = bool(map, "validate") ?? true
        action.linkPrompt = string(map, "link")
        if let cooldown = map["cooldown"], let seconds = duration(cooldown, allowNever: false) {
            action.cooldown = seconds
        }
        return action
    }

    /// `{label, call, retries, fallback}`.
    mutating func readTask(_ node: Node, in context: String) -> ChecklistTask? {
        guard let map = mapping(node, "a task") else { return nil }
        checkKeys(map, allowed: FilePart.task.names, in: "a task of \(context)")
        guard let label = requiredString(map, "label", in: "a task of \(context)"),
            let callNode = map["call"], let operation = readOperation(callNode)
        else {
            if map["call"] == nil { problems.append(Problem("a task of \(context) needs a 'call'", at: location(node))) }
            return nil
        }
        return ChecklistTask(
            label: label, operation: operation, retries: max(0, int(map, "retries") ?? 0), fallback: string(map, "fallback"))
    }

    mutating func readChoice(_ node: Node, in context: String) -> Choice? {
        guard let map = mapping(node, "'choice'") else { return nil }
        checkKeys(map, allowed: FilePart.choice.names, in: "the choice of \(context)")
        let options: Choice.Options
        if let from = string(map, "options_from") {
            options = .context(from)
        } else if map["options"] != nil {
            let fixed = strings(map, "options")
            if fixed.isEmpty { problems.append(Problem("'options' is empty in \(context)", at: location(map["options"]!))) }
            options = .fixed(fixed)
        } else {
            problems.append(Problem("the choice of \(context) needs 'options' or 'options_from'", at: location(node)))
            return nil
        }
        guard let store = requiredString(map, "store", in: "the choice of \(context)") else { return nil }
        guard let thenNode = map["then"], let thenMap = mapping(thenNode, "'then'") else {
            problems.append(Problem("the choice of \(context) needs 'then' (what a pick does)", at: location(node)))
            return nil
        }
        checkKeys(thenMap, allowed: FilePart.then.names, in: "'then' of \(context)")
        guard let step = readStep(thenMap, node: thenNode, in: "'then' of \(context)") else { return nil }
        return Choice(options: options, store: store, then: step)
    }

    /// Exactly one of go / back / call (+ on) / retry / notice / quit / branch.
    mutating func readStep(_ map: Node.Mapping, node: Node, in context: String) -> Step? {
        let kinds = FilePart.stepNames.filter { $0 != "on" && map[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            let what = kinds.isEmpty ? "says nothing it does" : "says several things (\(kinds.joined(separator: ", ")))"
            problems.append(
                Problem("\(context) \(what); give exactly one of go, back, call, retry, notice, quit, branch", at: location(node)))
            return nil
        }
        if kind != "call", let on = map["on"] {
            problems.append(Problem("'on' goes with 'call' only", at: location(on)))
        }
        switch kind {
        case "go":
            guard let target = string(map, "go") else { return nil }
            references.append((target, location(map["go"]!)))
            return .go(target)
        case "back": return .back
        case "retry": return .retry
        case "quit": return .quit
        case "notice": return .notice(string(map, "notice") ?? "")
        case "branch": return map["branch"].flatMap { readBranch($0, in: context) }
        default:
            guard let operation = map["call"], let call = readCall(operation: operation, outcomes: map["on"], in: context) else {
                return nil
            }
            return .call(call)
        }
    }

    mutating func readCall(operation node: Node, outcomes: Node?, in context: String) -> ServiceCall? {
        guard let operation = readOperation(node) else { return nil }
        guard let outcomes, let map = mapping(outcomes, "'on'") else {
            problems.append(
                Problem("the call '\(operation.rawValue)' in \(context) needs 'on' with at least 'success'", at: location(node)))
            return nil
        }
        var result: [String: Outcome] = [:]
        for (key, value) in map {
            guard let code = key.string else { continue }
            if !ResultCode.all.contains(code) {
                problems.append(
                    Problem(
                        "unknown result '\(code)'; "
                            + (Suggestion.closest(to: code, in: ["success", "error"] + ResultCode.serviceErrors).map {
                                "did you mean '\($0)'?"
                            }
                                ?? "use success, error, or one of: \(ResultCode.serviceErrors.sorted().joined(separator: ", "))"),
                        at: location(key)))
                continue
            }
            if let target = value.string {
                references.append((target, location(value)))
                result[code] = Outcome(go: target)
            } else if let outcomeMap = mapping(value, "an outcome") {
                checkKeys(outcomeMap, allowed: FilePart.outcome.names, in: "the outcome '\(code)'")
                let target = string(outcomeMap, "go")
                if let target { references.append((target, location(outcomeMap["go"]!))) }
                var outcome = Outcome(go: target, message: string(outcomeMap, "message"), back: bool(outcomeMap, "back") ?? false)
                outcome.field = string(outcomeMap, "field")
                result[code] = outcome
            }
        }
        if result["success"] == nil {
            problems.append(Problem("the call '\(operation.rawValue)' in \(context) has no 'success' outcome", at: location(outcomes)))
        }
        return ServiceCall(operation: operation, outcomes: result)
    }

    /// `branch: [{when: GUARD, go: SCREEN}, …, {go: SCREEN}]`; the last needs no guard.
    mutating func readBranch(_ node: Node, in context: String) -> Step? {
        guard let items = node.sequence, !items.isEmpty else {
            problems.append(Problem("'branch' in \(context) must be a list of {when, go}", at: location(node)))
            return nil
        }
        var branches: [Branch] = []
        for item in items {
            guard let map = mapping(item, "a branch") else { continue }
            checkKeys(map, allowed: FilePart.branch.names, in: "a branch of \(context)")
            guard let target = requiredString(map, "go", in: "a branch of \(context)") else { continue }
            references.append((target, location(map["go"]!)))
            branches.append(Branch(when: map["when"].flatMap { readGuard($0) }, go: target))
        }
        if branches.last?.when != nil {
            problems.append(Problem("the last branch in \(context) needs no 'when', so some screen always follows", at: location(node)))
        }
        return .branch(branches)
    }

    mutating func readGuard(_ node: Node) -> Guard? {
        guard let text = node.string, let parsed = Guard(text: text) else {
            let names = Guard.Name.allCases.filter { $0 != .equals }.map(\.rawValue).joined(separator: ", ")
            problems.append(
                Problem(
                    "unknown guard '\(node.string ?? "")'; use one of \(names), optionally after 'not', or 'KEY == VALUE' / 'KEY != VALUE'",
                    at: location(node)))
            return nil
        }
        return parsed
    }

    mutating func readOperation(_ node: Node) -> Operation? {
        guard let name = node.string else {
            problems.append(Problem("an operation name must be text", at: location(node)))
            return nil
        }
        guard let operation = Operation(rawValue: name) else {
            problems.append(
                Problem(
                    "unknown operation '\(name)'; \(Suggestion.hint(for: name, known: Operation.allCases.map(\.rawValue)))",
                    at: location(node)))
            return nil
        }
        return operation
    }
}
