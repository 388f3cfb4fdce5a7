import ScreenTable
import Suggestion
import Yams

/// The flow's top-level sections (entry, tokens, analytics) and its screens.
extension FlowReader {
    mutating func readEntry(_ node: Node?, parent: Node) -> Entry? {
        guard let node else {
            problems.append(Problem("the flow has no 'entry' (where a first launch begins)", at: location(parent)))
            return nil
        }
        guard let map = mapping(node, "'entry'") else { return nil }
        checkKeys(map, allowed: FilePart.entry.names, in: "'entry'")
        guard let first = requiredString(map, "first_launch", in: "'entry'") else { return nil }
        references.append((first, location(map["first_launch"]!)))
        let signedIn = string(map, "signed_in")
        if let signedIn { references.append((signedIn, location(map["signed_in"]!))) }
        let signedOut = string(map, "signed_out")
        if let signedOut { references.append((signedOut, location(map["signed_out"]!))) }
        var entry = Entry(firstLaunch: first, signedIn: signedIn, resume: bool(map, "resume") ?? true, signedOut: signedOut)
        entry.sessionRequired = bool(map, "session_required") ?? true
        entry.sessionEnded = string(map, "session_ended")
        if let ended = entry.sessionEnded { references.append((ended, location(map["session_ended"]!))) }
        entry.keepsGuest = bool(map, "keep_guest") ?? false
        entry.offlineGuest = string(map, "offline_guest")
        return entry
    }

    mutating func readTokens(_ node: Node?) -> TokenSettings {
        var settings = TokenSettings()
        guard let node, let map = mapping(node, "'tokens'") else { return settings }
        checkKeys(map, allowed: FilePart.tokens.names, in: "'tokens'")
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
        checkKeys(map, allowed: FilePart.analytics.names, in: "'analytics'")
        names.localID = bool(map, "local_id") ?? false
        names.step = string(map, "step")
        names.screens = string(map, "screens")
        names.breakdown = string(map, "breakdown")
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
                    problems.append(
                        Problem(
                            "unknown service error code '\(code)'; \(Suggestion.hint(for: code, known: ResultCode.serviceErrors.sorted()))",
                            at: location(key)))
                }
                names.errorCodes[code] = mapped
            }
        }
        return names
    }

    mutating func readScreen(_ node: Node) -> Screen? {
        guard let map = mapping(node, "a screen") else { return nil }
        checkKeys(map, allowed: FilePart.screen.names, in: "a screen")
        guard let id = requiredString(map, "id", in: "a screen") else { return nil }
        declaredScreens.insert(id)
        let context = "screen '\(id)'"
        guard let kindText = requiredString(map, "kind", in: context) else { return nil }
        guard let kind = Screen.Kind(rawValue: kindText) else {
            problems.append(
                Problem(
                    "unknown screen kind '\(kindText)' in \(context); \(Suggestion.hint(for: kindText, known: Screen.Kind.allCases.map(\.rawValue)))",
                    at: map["kind"].map(location) ?? start))
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
        screen.newestFirst = bool(map, "newest_first") ?? false
        screen.qr = string(map, "qr")
        if let node = map["poll"], let poll = mapping(node, "'poll'") {
            checkKeys(poll, allowed: FilePart.poll.names, in: "the poll of \(context)")
            if let call = poll["call"], let made = readCall(operation: call, outcomes: poll["on"], in: "the poll of \(context)") {
                screen.poll = Poll(
                    call: made, every: string(poll, "every"), until: string(poll, "until"),
                    withdraw: poll["withdraw"].flatMap { readOperation($0) })
            } else if poll["call"] == nil {
                problems.append(Problem("the poll of \(context) needs a 'call'", at: location(node)))
            }
        }
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
            problems.append(
                Problem(
                    "only progress screens make a call on arrival; use an action with 'call' in \(context)",
                    at: location(map["call"] ?? node))
            )
        }
        if screen.kind != .checklist, map["tasks"] != nil {
            problems.append(Problem("'tasks' belongs to checklist screens, not \(context)", at: location(node)))
        }
        if screen.kind != .progress, screen.kind != .choice, screen.kind != .route, map["actions"] == nil, !screen.completesOnboarding {
            problems.append(Problem("\(context) has no actions, so nothing leads away from it", at: location(node)))
        }
    }
}
