@testable import ScreenTable

/// Writes the built-in flows as Swift (`Sources/ScreenTable/CompiledFlows.swift`): one
/// function per flow that builds the same `Flow` the loader reads from its YAML, so a
/// launch costs no parse. Plain statements, one per property that differs from the
/// default, keep the file quick to type-check and easy to read in a diff.
enum CompiledFlowSource {
    static func file(_ flows: [Flow]) -> String {
        var lines = [
            "// Generated from BuiltinFlows/*.yaml; do not edit. After changing a flow file, run",
            "//   ONBOARD_REGENERATE=1 swift test --filter CompiledFlowsTests",
            "// CompiledFlowsTests fails while this differs from what FlowLoader reads from the YAML.",
            "",
            "enum CompiledFlows {",
            "    static func flow(_ id: String) -> Flow? {",
            "        switch id {",
        ]
        for flow in flows { lines.append("        case \(literal(flow.id)): \(name(flow))()") }
        lines += ["        default: nil", "        }", "    }"]
        for flow in flows { lines += [""] + source(of: flow) }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The service's side of the flows' `tokens` blocks
    /// (`Sources/OnboardService/CompiledGuestPolicies.swift`): the embedded mock and
    /// onboard-server choose a guest's lifetimes by its flow's id, without the flow table.
    /// Each YAML file's text as a raw string literal (no line of theirs holds `"""#`).
    static func textsFile(_ texts: [(id: String, text: String)]) -> String {
        var lines = [
            "// Generated from BuiltinFlows/*.yaml; do not edit. After changing a flow file, run",
            "//   ONBOARD_REGENERATE=1 swift test --filter CompiledFlowsTests",
            "",
            "enum CompiledFlowTexts {",
            "    static func text(_ id: String) -> String? {",
            "        switch id {",
        ]
        for (id, text) in texts {
            lines += ["        case \"\(id)\":", "            #\"\"\"", text, "\"\"\"#"]
        }
        lines += ["        default: nil", "        }", "    }", "}", ""]
        return lines.joined(separator: "\n")
    }

    static func guestPoliciesFile(_ flows: [Flow]) -> String {
        var lines = [
            "// Generated from BuiltinFlows/*.yaml (each flow's `tokens`); do not edit. After changing one, run",
            "//   ONBOARD_REGENERATE=1 swift test --filter CompiledFlowsTests",
            "",
            "import ServiceAPI",
            "",
            "extension OnboardService {",
            "    /// Each built-in flow's guest token lifetimes, by flow id.",
            "    static let builtinGuestPolicies: [String: TokenPolicy] = [",
        ]
        for flow in flows {
            let tokens = flow.tokens
            lines.append(
                "        \(literal(flow.id)): TokenPolicy(accessLifetime: \(tokens.accessLifetime), refreshLifetime: \(tokens.refreshLifetime.map(String.init) ?? "nil")),"
            )
        }
        lines += ["    ]", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    static func name(_ flow: Flow) -> String {
        String(flow.id.filter { $0.isLetter || $0.isNumber })
    }

    static func source(of flow: Flow) -> [String] {
        let id = name(flow)
        var lines = ["    private static func \(id)() -> Flow {"]
        let entry = flow.entry
        lines.append(
            "        var entry = Entry(firstLaunch: \(literal(entry.firstLaunch)), signedIn: \(literal(entry.signedIn)), resume: \(entry.resume), signedOut: \(literal(entry.signedOut)))"
        )
        lines.append("        entry.sessionRequired = \(entry.sessionRequired)")
        lines.append("        entry.sessionEnded = \(literal(entry.sessionEnded))")
        lines.append("        entry.keepsGuest = \(entry.keepsGuest)")
        lines.append("        entry.offlineGuest = \(literal(entry.offlineGuest))")
        let tokens = flow.tokens
        lines.append(
            "        let tokens = TokenSettings(accessLifetime: \(tokens.accessLifetime), refreshLifetime: \(tokens.refreshLifetime.map(String.init) ?? "nil"), renewBefore: \(tokens.renewBefore))"
        )
        let names = flow.analytics
        lines.append(
            "        var analytics = AnalyticsNames(start: \(literal(names.start)), complete: \(literal(names.complete)), error: \(literal(names.error)), retry: \(literal(names.retry)), errorCodes: \(literal(names.errorCodes)))"
        )
        lines.append("        analytics.consentKey = \(literal(names.consentKey))")
        lines.append("        analytics.renewed = \(literal(names.renewed))")
        lines.append("        analytics.step = \(literal(names.step))")
        lines.append("        analytics.screens = \(literal(names.screens))")
        lines.append("        analytics.breakdown = \(literal(names.breakdown))")
        lines.append("        analytics.localID = \(names.localID)")
        let screens = flow.screens.indices.map { "\(id)Screen\($0)()" }.joined(separator: ", ")
        lines.append(
            "        var flow = Flow(id: \(literal(flow.id)), title: \(literal(flow.title)), summary: \(literal(flow.summary)), entry: entry, tokens: tokens, analytics: analytics, screens: [\(screens)])"
        )
        lines.append("        flow.serviceURLKey = \(literal(flow.serviceURLKey))")
        lines.append("        flow.stepCount = \(flow.stepCount.map(String.init) ?? "nil")")
        lines.append("        flow.secrets = \(literal(flow.secrets))")
        lines += ["        return flow", "    }"]
        for (index, screen) in flow.screens.enumerated() {
            lines += [""] + source(of: screen, function: "\(id)Screen\(index)")
        }
        return lines
    }

    static func source(of screen: Screen, function: String) -> [String] {
        var lines = [
            "    private static func \(function)() -> Screen {",
            "        var screen = Screen(id: \(literal(screen.id)), kind: .\(screen.kind), location: \(literal(screen.location)))",
        ]
        func set(_ property: String, _ value: String, unless defaultValue: String) {
            if value != defaultValue { lines.append("        screen.\(property) = \(value)") }
        }
        set("title", literal(screen.title), unless: "\"\"")
        set("logo", literal(screen.logo), unless: "[]")
        set("body", literal(screen.body), unless: "\"\"")
        set("bullets", literal(screen.bullets), unless: "[]")
        set("load", "[\(screen.load.map { ".\($0)" }.joined(separator: ", "))]", unless: "[]")
        set("allowsBack", "\(screen.allowsBack)", unless: "false")
        set("resumeAt", literal(screen.resumeAt), unless: "nil")
        set("resumesAfterComplete", "\(screen.resumesAfterComplete)", unless: "false")
        lines.append("        screen.resumable = \(screen.resumable)")
        set("completesOnboarding", "\(screen.completesOnboarding)", unless: "false")
        set("track", literal(screen.track), unless: "[]")
        set("items", literal(screen.items), unless: "nil")
        set("empty", literal(screen.empty), unless: "\"\"")
        set("newestFirst", "\(screen.newestFirst)", unless: "false")
        set("qr", literal(screen.qr), unless: "nil")
        set("step", screen.step.map(String.init) ?? "nil", unless: "nil")
        set("report", literal(screen.report), unless: "nil")
        set("finishedNote", literal(screen.finishedNote), unless: "nil")
        set("fallbackNote", literal(screen.fallbackNote), unless: "nil")
        set("route", "[\(screen.route.map(branch).joined(separator: ", "))]", unless: "[]")
        if let call = screen.call { lines.append("        screen.call = \(self.call(call))") }
        if let poll = screen.poll {
            lines.append(
                "        screen.poll = Poll(call: \(self.call(poll.call)), every: \(literal(poll.every)), until: \(literal(poll.until)), withdraw: \(poll.withdraw.map { "." + String(describing: $0) } ?? "nil"))"
            )
        }
        if let choice = screen.choice {
            let options =
                switch choice.options {
                case .fixed(let list): ".fixed(\(literal(list)))"
                case .context(let key): ".context(\(literal(key)))"
                }
            lines.append("        screen.choice = Choice(options: \(options), store: \(literal(choice.store)), then: \(step(choice.then)))")
        }
        for task in screen.tasks {
            lines.append(
                "        screen.tasks.append(ChecklistTask(label: \(literal(task.label)), operation: .\(task.operation), retries: \(task.retries), fallback: \(literal(task.fallback))))"
            )
        }
        for field in screen.fields {
            var changes: [String] = []
            for rule in field.rules {
                changes.append(
                    "            field.rules.append(Rule(.\(rule.name), count: \(rule.count.map(String.init) ?? "nil"), field: \(literal(rule.field)), message: \(literal(rule.message))))"
                )
            }
            func setField(_ property: String, _ value: String, unless defaultValue: String) {
                if value != defaultValue { changes.append("            field.\(property) = \(value)") }
            }
            setField("options", literal(field.options), unless: "[]")
            setField("optionsFrom", literal(field.optionsFrom), unless: "nil")
            setField("exclusive", literal(field.exclusive), unless: "nil")
            setField("minimum", "\(field.minimum)", unless: "0")
            setField("maximum", "\(field.maximum)", unless: "100")
            setField("initial", literal(field.initial), unless: "nil")
            setField("showsAge", "\(field.showsAge)", unless: "false")
            setField("submitsWhenFull", "\(field.submitsWhenFull)", unless: "false")
            lines.append("        do {")
            lines.append(
                "            \(changes.isEmpty ? "let" : "var") field = Field(id: \(literal(field.id)), kind: .\(field.kind), label: \(literal(field.label)), placeholder: \(literal(field.placeholder)), maxLength: \(field.maxLength))"
            )
            lines += changes + ["            screen.fields.append(field)", "        }"]
        }
        for action in screen.actions {
            var changes: [String] = []
            if !action.validates { changes.append("            action.validates = false") }
            if !action.sets.isEmpty { changes.append("            action.sets = \(literal(action.sets))") }
            if let cooldown = action.cooldown { changes.append("            action.cooldown = \(cooldown)") }
            if let prompt = action.linkPrompt { changes.append("            action.linkPrompt = \(literal(prompt))") }
            let key = action.key.map { literal(String($0)) } ?? "nil"
            lines.append("        do {")
            lines.append(
                "            \(changes.isEmpty ? "let" : "var") action = Action(label: \(literal(action.label)), key: \(key), step: \(step(action.step)), when: \(guardSource(action.when)), location: \(literal(action.location)))"
            )
            lines += changes + ["            screen.actions.append(action)", "        }"]
        }
        lines += ["        return screen", "    }"]
        return lines
    }

    static func step(_ step: Step) -> String {
        switch step {
        case .go(let target): ".go(\(literal(target)))"
        case .back: ".back"
        case .retry: ".retry"
        case .quit: ".quit"
        case .notice(let text): ".notice(\(literal(text)))"
        case .call(let call): ".call(\(self.call(call)))"
        case .branch(let branches): ".branch([\(branches.map(branch).joined(separator: ", "))])"
        }
    }

    static func call(_ call: ServiceCall) -> String {
        let outcomes = call.outcomes.sorted { $0.key < $1.key }.map { code, outcome in
            "\(literal(code)): Outcome(go: \(literal(outcome.go)), message: \(literal(outcome.message)), back: \(outcome.back), field: \(literal(outcome.field)))"
        }
        return "ServiceCall(operation: .\(call.operation), outcomes: [\(outcomes.joined(separator: ", "))])"
    }

    static func branch(_ branch: Branch) -> String {
        "Branch(when: \(guardSource(branch.when)), go: \(literal(branch.go)))"
    }

    static func guardSource(_ guardValue: Guard?) -> String {
        guard let guardValue else { return "nil" }
        return
            "Guard(.\(guardValue.name), negated: \(guardValue.negated), key: \(literal(guardValue.key)), value: \(literal(guardValue.value)))"
    }

    // MARK: Literals

    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func literal(_ text: String?) -> String { text.map { literal($0) } ?? "nil" }

    static func literal(_ list: [String]) -> String { "[\(list.map { literal($0) }.joined(separator: ", "))]" }

    static func literal(_ map: [String: String]) -> String {
        map.isEmpty
            ? "[:]" : "[\(map.sorted { $0.key < $1.key }.map { "\(literal($0.key)): \(literal($0.value))" }.joined(separator: ", "))]"
    }

    static func literal(_ location: SourceLocation?) -> String {
        guard let location else { return "nil" }
        return "SourceLocation(file: \(literal(location.file)), line: \(location.line), column: \(location.column))"
    }
}
