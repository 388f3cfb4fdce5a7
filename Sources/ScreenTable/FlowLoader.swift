import Yams

/// Reads a flow file (YAML) into a `Flow`, collecting every problem with its place
/// instead of stopping at the first, so `onboard lint` can list them all.
public enum FlowLoader {
    /// The flow, or every problem found in the file.
    public static func load(yaml: String, file: String) -> Result<Flow, FlowFileError> {
        var reader = FlowReader(file: file)
        let flow = reader.read(yaml)
        // Every problem at once: the graph is checked even when screens had problems.
        if let flow { reader.checkGraph(flow) }
        if let flow, reader.problems.isEmpty { return .success(flow) }
        let problems = reader.problems.isEmpty
            ? [Problem("the file holds no flow", at: SourceLocation(file: file, line: 1, column: 1))]
            : reader.problems
        return .failure(FlowFileError(problems: problems))
    }
}

/// Walks the YAML node tree, keeping each node's line and column for messages.
struct FlowReader {
    let file: String
    var problems: [Problem] = []
    /// Screen ids named by steps and outcomes, with where they were named.
    var references: [(id: String, location: SourceLocation)] = []
    /// Every screen id the file declares, including screens dropped for a problem, so
    /// a reference to one is not reported as unknown too.
    var declaredScreens: Set<String> = []

    init(file: String) {
        self.file = file
    }

    mutating func read(_ yaml: String) -> Flow? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            report(error)
            return nil
        } catch {
            problems.append(Problem("\(error)", at: start))
            return nil
        }
        guard let root else {
            problems.append(Problem("the file is empty", at: start))
            return nil
        }
        guard let map = mapping(root, "the flow") else { return nil }
        checkKeys(map, allowed: ["id", "title", "summary", "entry", "tokens", "analytics", "screens", "service_url", "steps", "secrets"], in: "the flow")
        let id = requiredString(map, "id", in: "the flow") ?? ""
        let title = requiredString(map, "title", in: "the flow") ?? ""
        let summary = string(map, "summary") ?? ""
        let entry = readEntry(map["entry"], parent: root)
        let tokens = readTokens(map["tokens"])
        let analytics = readAnalytics(map["analytics"])
        var screens: [Screen] = []
        if let list = map["screens"] {
            if let sequence = list.sequence, !sequence.isEmpty {
                screens = sequence.compactMap { readScreen($0) }
            } else {
                problems.append(Problem("'screens' must be a list with at least one screen", at: location(list)))
            }
        } else {
            problems.append(Problem("the flow has no 'screens'", at: location(root)))
        }
        guard let entry else { return nil }
        var flow = Flow(id: id, title: title, summary: summary, entry: entry, tokens: tokens, analytics: analytics, screens: screens)
        flow.serviceURLKey = string(map, "service_url")
        flow.stepCount = int(map, "steps")
        flow.secrets = strings(map, "secrets")
        if let count = flow.stepCount {
            for screen in screens {
                if let step = screen.step, !(1...max(1, count)).contains(step) {
                    problems.append(Problem("screen '\(screen.id)' is step \(step), but the flow has \(count) steps", at: screen.location ?? start))
                }
            }
        } else if let numbered = screens.first(where: { $0.step != nil }) {
            problems.append(Problem("screen '\(numbered.id)' has a 'step' but the flow does not say how many 'steps' it has", at: numbered.location ?? start))
        }
        return flow
    }

    // MARK: Sections

    mutating func readEntry(_ node: Node?, parent: Node) -> Entry? {
        guard let node else {
            problems.append(Problem("the flow has no 'entry' (where a first launch begins)", at: location(parent)))
            return nil
        }
        guard let map = mapping(node, "'entry'") else { return nil }
        checkKeys(map, allowed: ["first_launch", "signed_in", "resume", "signed_out", "session_required"], in: "'entry'")
        guard let first = requiredString(map, "first_launch", in: "'entry'") else { return nil }
        references.append((first, location(map["first_launch"]!)))
        let signedIn = string(map, "signed_in")
        if let signedIn { references.append((signedIn, location(map["signed_in"]!))) }
        let signedOut = string(map, "signed_out")
        if let signedOut { references.append((signedOut, location(map["signed_out"]!))) }
        var entry = Entry(firstLaunch: first, signedIn: signedIn, resume: bool(map, "resume") ?? true, signedOut: signedOut)
        entry.sessionRequired = bool(map, "session_required") ?? true
        return entry
    }

    mutating func readTokens(_ node: Node?) -> TokenSettings {
        var settings = TokenSettings()
        guard let node, let map = mapping(node, "'tokens'") else { return settings }
        checkKeys(map, allowed: ["access_ttl", "refresh_ttl", "renew_before"], in: "'tokens'")
        if let value = map["renew_before"] {
            if let seconds = duration(value, allowNever: false) { settings.renewBefore = seconds ?? 60 }
        }
        if let value = map["access_ttl"] {
            if let seconds = duration(value, allowNever: false) { settings.accessLifetime = seconds ?? 0 }
        }
        if let value = map["refresh_ttl"] {
            if let seconds = duration(value, allowNever: true) { settings.refreshLifetime = seconds }
        }
        return settings
    }

    mutating func readAnalytics(_ node: Node?) -> AnalyticsNames {
        var names = AnalyticsNames()
        guard let node, let map = mapping(node, "'analytics'") else { return names }
        checkKeys(map, allowed: ["start", "complete", "error", "retry", "error_codes", "consent", "renewed", "local_id", "step"], in: "'analytics'")
        names.localID = bool(map, "local_id") ?? false
        names.step = string(map, "step")
        names.consentKey = string(map, "consent")
        names.renewed = string(map, "renewed")
        names.start = string(map, "start")
        names.complete = string(map, "complete")
        names.error = string(map, "error")
        names.retry = string(map, "retry")
        if let codes = map["error_codes"], let codeMap = mapping(codes, "'error_codes'") {
            for (key, value) in codeMap {
                guard let code = key.string, let mapped = value.string else { continue }
                if !ResultCode.serviceErrors.contains(code) {
                    problems.append(Problem("unknown service error code '\(code)'; known: \(ResultCode.serviceErrors.sorted().joined(separator: ", "))", at: location(key)))
                }
                names.errorCodes[code] = mapped
            }
        }
        return names
    }

    mutating func readScreen(_ node: Node) -> Screen? {
        guard let map = mapping(node, "a screen") else { return nil }
        let keys = ["id", "kind", "title", "logo", "body", "bullets", "fields", "actions", "choice", "call", "on",
                    "load", "back", "resumable", "complete", "track", "items", "empty", "route", "step", "tasks", "report", "finished", "finished_offline", "resume_at", "resume_after_complete"]
        checkKeys(map, allowed: Set(keys), in: "a screen")
        guard let id = requiredString(map, "id", in: "a screen") else { return nil }
        declaredScreens.insert(id)
        let context = "screen '\(id)'"
        guard let kindText = requiredString(map, "kind", in: context) else { return nil }
        guard let kind = Screen.Kind(rawValue: kindText) else {
            problems.append(Problem("unknown screen kind '\(kindText)' in \(context); known: \(Screen.Kind.allCases.map(\.rawValue).joined(separator: ", "))", at: location(map["kind"]!)))
            return nil
        }
        var screen = Screen(
            id: id, kind: kind, title: string(map, "title") ?? "", logo: strings(map, "logo"),
            body: string(map, "body") ?? "", bullets: strings(map, "bullets"),
            allowsBack: bool(map, "back") ?? false, resumable: bool(map, "resumable"),
            completesOnboarding: bool(map, "complete") ?? false, track: strings(map, "track"),
            items: string(map, "items"), empty: string(map, "empty") ?? "", location: location(node)
        )
        screen.step = int(map, "step")
        screen.resumesAfterComplete = bool(map, "resume_after_complete") ?? false
        if let target = string(map, "resume_at") {
            screen.resumeAt = target
            references.append((target, location(map["resume_at"]!)))
        }
        screen.report = string(map, "report")
        screen.finishedNote = string(map, "finished")
        screen.fallbackNote = string(map, "finished_offline")
        for item in map["tasks"]?.sequence ?? [] {
            if let task = readTask(item, in: context) { screen.tasks.append(task) }
        }
        if let fields = map["fields"]?.sequence {
            screen.fields = fields.compactMap { readField($0, in: context) }
        }
        if let actions = map["actions"]?.sequence {
            screen.actions = actions.compactMap { readAction($0, in: context) }
        }
        if let choice = map["choice"] {
            screen.choice = readChoice(choice, in: context)
        }
        if let call = map["call"] {
            screen.call = readCall(operation: call, outcomes: map["on"], in: context)
        } else if let on = map["on"] {
            problems.append(Problem("'on' without 'call' in \(context)", at: location(on)))
        }
        if let route = map["route"] {
            if case .branch(let branches)? = readBranch(route, in: context) { screen.route = branches }
        }
        for item in map["load"]?.sequence ?? [] {
            if let operation = readOperation(item) { screen.load.append(operation) }
        }
        checkShape(screen, map: map, node: node)
        return screen
    }

    mutating func checkShape(_ screen: Screen, map: Node.Mapping, node: Node) {
        let context = "screen '\(screen.id)'"
        switch screen.kind {
        case .progress:
            if screen.call == nil { problems.append(Problem("progress \(context) needs a 'call'", at: location(node))) }
        case .choice:
            if screen.choice == nil { problems.append(Problem("choice \(context) needs a 'choice'", at: location(node))) }
        case .form:
            if screen.fields.isEmpty { problems.append(Problem("form \(context) needs at least one field", at: location(node))) }
        case .route:
            if screen.route.isEmpty { problems.append(Problem("route \(context) needs a 'route' list of {when, go}", at: location(node))) }
        case .checklist:
            if screen.tasks.isEmpty {
                problems.append(Problem("checklist \(context) needs 'tasks'", at: location(node)))
            }
        case .info, .error:
            break
        }
        if screen.kind != .progress, screen.call != nil {
            problems.append(Problem("only progress screens make a call on arrival; use an action with 'call' in \(context)", at: location(map["call"]!)))
        }
        if screen.kind != .checklist, map["tasks"] != nil {
            problems.append(Problem("'tasks' belongs to checklist screens, not \(context)", at: location(node)))
        }
        if screen.kind != .progress, screen.kind != .choice, screen.kind != .route, map["actions"] == nil, !screen.completesOnboarding {
            problems.append(Problem("\(context) has no actions, so nothing leads away from it", at: location(node)))
        }
    }

    mutating func readField(_ node: Node, in context: String) -> Field? {
        guard let map = mapping(node, "a field") else { return nil }
        checkKeys(map, allowed: ["id", "kind", "label", "placeholder", "max_length", "rules", "options", "options_from", "exclusive", "min", "max", "default", "shows_age", "submit_when_full"], in: "a field of \(context)")
        guard let id = requiredString(map, "id", in: "a field of \(context)") else { return nil }
        guard let label = requiredString(map, "label", in: "field '\(id)' of \(context)") else { return nil }
        var kind = Field.Kind.text
        if let text = string(map, "kind") {
            if let known = Field.Kind(rawValue: text) { kind = known } else {
                problems.append(Problem("unknown field kind '\(text)'; known: \(Field.Kind.allCases.map(\.rawValue).joined(separator: ", "))", at: location(map["kind"]!)))
            }
        }
        var field = Field(id: id, kind: kind, label: label, placeholder: string(map, "placeholder") ?? "")
        if let limit = int(map, "max_length") { field.maxLength = max(1, limit) }
        field.options = strings(map, "options")
        field.optionsFrom = string(map, "options_from")
        field.exclusive = string(map, "exclusive")
        field.minimum = int(map, "min") ?? field.minimum
        field.maximum = int(map, "max") ?? field.maximum
        field.initial = string(map, "default")
        field.showsAge = bool(map, "shows_age") ?? false
        field.submitsWhenFull = bool(map, "submit_when_full") ?? false
        let here = location(node)
        switch kind {
        case .select, .multi:
            if field.options.isEmpty, field.optionsFrom == nil {
                problems.append(Problem("\(kind.rawValue) field '\(id)' needs 'options' or 'options_from'", at: here))
            }
            if let exclusive = field.exclusive, !field.options.contains(exclusive) {
                problems.append(Problem("'exclusive' of field '\(id)' must be one of its options", at: here))
            }
        case .slider, .range:
            if field.minimum >= field.maximum { problems.append(Problem("field '\(id)' needs 'min' below 'max'", at: here)) }
        default:
            if map["options"] != nil { problems.append(Problem("'options' belongs to select and multi fields, not \(kind.rawValue)", at: here)) }
        }
        for ruleNode in map["rules"]?.sequence ?? [] {
            if let rule = readRule(ruleNode, field: id) { field.rules.append(rule) }
        }
        return field
    }

    mutating func readRule(_ node: Node, field: String) -> Rule? {
        guard let map = mapping(node, "a rule") else { return nil }
        let context = "a rule of field '\(field)'"
        checkKeys(map, allowed: ["rule", "value", "field", "message"], in: context)
        guard let nameText = requiredString(map, "rule", in: context) else { return nil }
        guard let name = Rule.Name(rawValue: nameText) else {
            problems.append(Problem("unknown validation rule '\(nameText)'; known: \(Rule.Name.allCases.map(\.rawValue).joined(separator: ", "))", at: location(map["rule"]!)))
            return nil
        }
        guard let message = requiredString(map, "message", in: "rule '\(nameText)' of field '\(field)'") else { return nil }
        var rule = Rule(name, message: message)
        switch name.parameter {
        case .none:
            break
        case .count:
            guard let count = int(map, "value"), count >= 0 else {
                problems.append(Problem("rule '\(nameText)' needs a whole number 'value'", at: location(node)))
                return nil
            }
            rule.count = count
        case .fieldID:
            guard let other = string(map, "field") else {
                problems.append(Problem("rule '\(nameText)' needs the 'field' it must match", at: location(node)))
                return nil
            }
            rule.field = other
        }
        return rule
    }

    mutating func readAction(_ node: Node, in context: String) -> Action? {
        guard let map = mapping(node, "an action") else { return nil }
        checkKeys(map, allowed: ["label", "key", "when", "go", "back", "call", "on", "retry", "notice", "quit", "branch", "set", "cooldown", "validate", "link"], in: "an action of \(context)")
        guard let label = string(map, "label"), !label.isEmpty else {
            problems.append(Problem("an action of \(context) has no 'label'", at: location(node)))
            return nil
        }
        var key: Character?
        if let keyText = string(map, "key") {
            if keyText.count == 1 { key = keyText.first } else {
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
        checkKeys(map, allowed: ["label", "call", "retries", "fallback"], in: "a task of \(context)")
        guard let label = requiredString(map, "label", in: "a task of \(context)"),
              let callNode = map["call"], let operation = readOperation(callNode) else {
            if map["call"] == nil { problems.append(Problem("a task of \(context) needs a 'call'", at: location(node))) }
            return nil
        }
        return ChecklistTask(label: label, operation: operation, retries: max(0, int(map, "retries") ?? 0), fallback: string(map, "fallback"))
    }

    mutating func readChoice(_ node: Node, in context: String) -> Choice? {
        guard let map = mapping(node, "'choice'") else { return nil }
        checkKeys(map, allowed: ["options", "options_from", "store", "then"], in: "the choice of \(context)")
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
        checkKeys(thenMap, allowed: ["go", "back", "call", "on", "retry", "notice", "quit", "branch"], in: "'then' of \(context)")
        guard let step = readStep(thenMap, node: thenNode, in: "'then' of \(context)") else { return nil }
        return Choice(options: options, store: store, then: step)
    }

    /// Exactly one of go / back / call (+ on) / retry / notice / quit / branch.
    mutating func readStep(_ map: Node.Mapping, node: Node, in context: String) -> Step? {
        let kinds = ["go", "back", "call", "retry", "notice", "quit", "branch"].filter { map[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            let what = kinds.isEmpty ? "says nothing it does" : "says several things (\(kinds.joined(separator: ", ")))"
            problems.append(Problem("\(context) \(what); give exactly one of go, back, call, retry, notice, quit, branch", at: location(node)))
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
        case "branch": return readBranch(map["branch"]!, in: context)
        default:
            guard let call = readCall(operation: map["call"]!, outcomes: map["on"], in: context) else { return nil }
            return .call(call)
        }
    }

    mutating func readCall(operation node: Node, outcomes: Node?, in context: String) -> ServiceCall? {
        guard let operation = readOperation(node) else { return nil }
        guard let outcomes, let map = mapping(outcomes, "'on'") else {
            problems.append(Problem("the call '\(operation.rawValue)' in \(context) needs 'on' with at least 'success'", at: location(node)))
            return nil
        }
        var result: [String: Outcome] = [:]
        for (key, value) in map {
            guard let code = key.string else { continue }
            if !ResultCode.all.contains(code) {
                problems.append(Problem("unknown result '\(code)'; use success, error, or one of: \(ResultCode.serviceErrors.sorted().joined(separator: ", "))", at: location(key)))
                continue
            }
            if let target = value.string {
                references.append((target, location(value)))
                result[code] = Outcome(go: target)
            } else if let outcomeMap = mapping(value, "an outcome") {
                checkKeys(outcomeMap, allowed: ["go", "message", "back", "field"], in: "the outcome '\(code)'")
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
            checkKeys(map, allowed: ["when", "go"], in: "a branch of \(context)")
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
            problems.append(Problem("unknown guard '\(node.string ?? "")'; use one of \(names), optionally after 'not', or 'KEY == VALUE' / 'KEY != VALUE'", at: location(node)))
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
            problems.append(Problem("unknown operation '\(name)'; known: \(Operation.allCases.map(\.rawValue).joined(separator: ", "))", at: location(node)))
            return nil
        }
        return operation
    }

    // MARK: Whole-flow checks

    /// Screen ids that are unknown, duplicated or unreachable.
    mutating func checkGraph(_ flow: Flow) {
        let earlierProblems = !problems.isEmpty
        var seen: Set<String> = []
        for screen in flow.screens where !seen.insert(screen.id).inserted {
            problems.append(Problem("screen id '\(screen.id)' is used twice", at: screen.location ?? start))
        }
        for reference in references where !declaredScreens.contains(reference.id) {
            problems.append(Problem("unknown screen '\(reference.id)'", at: reference.location))
        }
        for screen in flow.screens {
            for field in screen.fields {
                for rule in field.rules where rule.name == .matches {
                    if let other = rule.field, !screen.fields.contains(where: { $0.id == other }) {
                        problems.append(Problem("rule 'matches' of field '\(field.id)' names unknown field '\(other)'", at: screen.location ?? start))
                    }
                }
            }
        }
        // A screen dropped for a problem leaves gaps in the graph: reachability would
        // only add false alarms then.
        guard !earlierProblems, problems.isEmpty else { return }
        let reachable = Reachability.screens(from: flow)
        for screen in flow.screens where !reachable.contains(screen.id) {
            problems.append(Problem("screen '\(screen.id)' is unreachable: no entry, action or outcome leads to it", at: screen.location ?? start))
        }
    }

    // MARK: Node helpers

    var start: SourceLocation { SourceLocation(file: file, line: 1, column: 1) }

    func location(_ node: Node) -> SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    mutating func report(_ error: YamlError) {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            problems.append(Problem("not valid YAML: \(problem)", at: SourceLocation(file: file, line: mark.line, column: mark.column)))
        case let .duplicatedKeysInMapping(duplicates, context):
            problems.append(Problem("duplicate keys: \(duplicates.joined(separator: ", "))", at: SourceLocation(file: file, line: context.mark.line, column: context.mark.column)))
        default:
            problems.append(Problem("not valid YAML: \(error)", at: start))
        }
    }

    mutating func mapping(_ node: Node, _ what: String) -> Node.Mapping? {
        if let map = node.mapping { return map }
        problems.append(Problem("\(what) must be a mapping of keys to values", at: location(node)))
        return nil
    }

    mutating func checkKeys(_ map: Node.Mapping, allowed: Set<String>, in context: String) {
        for key in map.keys {
            guard let name = key.string else { continue }
            if !allowed.contains(name) {
                problems.append(Problem("unknown key '\(name)' in \(context); known: \(allowed.sorted().joined(separator: ", "))", at: location(key)))
            }
        }
    }

    mutating func requiredString(_ map: Node.Mapping, _ key: String, in context: String) -> String? {
        guard let node = map[key] else {
            let place = map.keys.first.map(location) ?? start
            problems.append(Problem("\(context) has no '\(key)'", at: place))
            return nil
        }
        guard let value = node.scalar?.string, !value.isEmpty else {
            problems.append(Problem("'\(key)' in \(context) must be non-empty text", at: location(node)))
            return nil
        }
        return value
    }

    mutating func string(_ map: Node.Mapping, _ key: String) -> String? {
        guard let node = map[key] else { return nil }
        guard let value = node.scalar?.string else {
            problems.append(Problem("'\(key)' must be text", at: location(node)))
            return nil
        }
        return value
    }

    mutating func strings(_ map: Node.Mapping, _ key: String) -> [String] {
        guard let node = map[key] else { return [] }
        guard let items = node.sequence else {
            problems.append(Problem("'\(key)' must be a list", at: location(node)))
            return []
        }
        return items.compactMap { item in
            if let text = item.scalar?.string { return text }
            problems.append(Problem("items of '\(key)' must be text", at: location(item)))
            return nil
        }
    }

    mutating func bool(_ map: Node.Mapping, _ key: String) -> Bool? {
        guard let node = map[key] else { return nil }
        guard let value = node.bool else {
            problems.append(Problem("'\(key)' must be true or false", at: location(node)))
            return nil
        }
        return value
    }

    mutating func int(_ map: Node.Mapping, _ key: String) -> Int? {
        guard let node = map[key] else { return nil }
        guard let value = node.int else {
            problems.append(Problem("'\(key)' must be a whole number", at: location(node)))
            return nil
        }
        return value
    }

    /// Seconds; `.some(nil)` for `never` where allowed; nil when invalid.
    mutating func duration(_ node: Node, allowNever: Bool) -> Int64?? {
        let text = node.scalar?.string ?? ""
        if allowNever, text == "never" { return .some(nil) }
        guard let seconds = DurationText.seconds(text), seconds > 0 else {
            problems.append(Problem("'\(text)' is not a duration like 15m, 24h or 30d\(allowNever ? " (or never)" : "")", at: location(node)))
            return nil
        }
        return .some(seconds)
    }
}
