import FlowEngine
import ScreenTable
import ServiceAPI

/// Everything of a flow QA can reach — each screen, each result branch of each call, each
/// validation message — with how to reach it, derived from the table: the step that
/// leads to a screen, the fault or clock shift behind a result code, the input a rule
/// turns down.
public struct CoverageMap: Sendable {
    public struct Item: Sendable, Equatable {
        public var reach: Reach
        /// What QA sees: the screen's title, the call and code, the message.
        public var title: String
        /// How to get there.
        public var how: String
    }

    public var flow: Flow
    public var items: [Item]

    public init(flow: Flow) {
        self.flow = flow
        var results: [Item] = []
        for screen in flow.screens {
            for call in Self.calls(on: screen) {
                for code in call.outcomes.keys.sorted(by: { Self.order($0) < Self.order($1) }) {
                    let reach = Reach.result(screen: screen.id, operation: call.operation.rawValue, code: code)
                    results.append(
                        Item(reach: reach, title: "\(call.operation.rawValue) on: \(code)", how: Self.cause(of: code, for: call)))
                }
            }
        }
        let graph = FlowGraph(flow: flow)
        var items = flow.screens.map { screen in
            Item(
                reach: .screen(screen.id), title: screen.title.isEmpty ? screen.id : screen.title,
                how: Self.way(to: screen.id, in: flow, graph, results: results))
        }
        items += results
        for screen in flow.screens {
            for field in screen.fields {
                for rule in field.rules {
                    let reach = Reach.message(screen: screen.id, field: field.id, rule: rule.name.rawValue)
                    items.append(
                        Item(reach: reach, title: "\(field.label): \(rule.message)", how: Self.input(failing: rule, of: field, on: screen)))
                }
            }
        }
        self.items = items
    }

    /// Every call a screen makes: on arrival, from its actions and from its choice.
    static func calls(on screen: Screen) -> [ServiceCall] {
        var steps = screen.actions.map(\.step)
        if let choice = screen.choice { steps.append(choice.then) }
        var calls = screen.ownCalls
        for case .call(let call) in steps where !calls.contains(where: { $0.operation == call.operation }) {
            calls.append(call)
        }
        return calls
    }

    private static func order(_ code: String) -> (Int, String) {
        (code == "success" ? 0 : code == "error" ? 2 : 1, code)
    }

    /// The first step into a screen, as the graph labels it: a forward one if there is
    /// one, else an error branch with what causes it.
    static func way(to screen: String, in flow: Flow, _ graph: FlowGraph, results: [Item]) -> String {
        let incoming = graph.edges.filter { $0.to == screen && $0.from != screen }
        guard let edge = incoming.first(where: { $0.style == .normal }) ?? incoming.first else { return "nothing leads here" }
        if edge.from == FlowGraph.launchID { return "start the flow (\(edge.label))" }
        if let simulated = simulation(into: screen, from: flow.screen(edge.from)) {
            return "from \(edge.from): \(edge.label), with onboard --simulate \(simulated)"
        }
        let cause = results.first { item in
            guard case .result(let from, let operation, let code) = item.reach else { return false }
            return from == edge.from && edge.label.hasSuffix("\(operation) on: \(code)")
        }
        guard edge.style == .error, let cause else { return "from \(edge.from): \(edge.label)" }
        return "from \(edge.from): \(edge.label), by \(cause.how)"
    }

    /// `KEY=VALUE` for a route into a screen that tests what the device reports (MIGA's
    /// unlock method): the value the branch names, or for the last branch a value the
    /// device can report that no other branch names.
    static func simulation(into screen: String, from source: Screen?) -> String? {
        var reported: [String: [String]] = [:]
        for operation in Operation.allCases { reported.merge(operation.deviceReports) { first, _ in first } }
        let tests = (source?.route ?? []).compactMap { branch -> (key: String, value: String, go: String)? in
            guard let test = branch.when, test.name == .equals, !test.negated, let key = test.key, reported[key] != nil,
                let value = test.value
            else { return nil }
            return (key, value, branch.go)
        }
        if let test = tests.first(where: { $0.go == screen }) { return "\(test.key)=\(test.value)" }
        guard let key = tests.first?.key, source?.route.last?.go == screen, source?.route.last?.when == nil,
            let other = reported[key]?.first(where: { value in !tests.contains { $0.value == value } })
        else { return nil }
        return "\(key)=\(other)"
    }

    /// Calls whose codes come from something other than a fault: an input, the clock, or
    /// nothing at all (a call that takes a failure in its stride).
    static let specialCauses: [Operation: [String: String]] = [
        .verifyPhoneCode: [
            "invalid_input": "a wrong code, or Ctrl-G › Clock › +1 hour after it was sent (expired)",
            "rate_limited": "wrong codes until no tries are left (or fault rate-limit)",
            "not_found": "Ctrl-G › Jump to this screen before any code was sent",
        ],
        .sendPhoneCode: [
            "invalid_input": "a number the service turns down for its country",
            "rate_limited": "a new code asked for again at once (or fault rate-limit)",
        ],
        .pollSocialDevice: [
            "access_denied": "Deny on the server's device page (onboard-server --dev)",
            "expired_token": "fault expired-device-code (Ctrl-G › Faults), or Ctrl-G › Clock › +1 hour",
            "slow_down": "fault slow-down (Ctrl-G › Faults)",
        ],
        .approveSocialDevice: [
            "unauthorized": "fault forged-id-token (Ctrl-G › Faults)",
            "expired_token": "Ctrl-G › Clock › +1 hour before Allow",
        ],
        .register: ["invalid_input": "a password of 73 bytes or more (the form checks the rest)"],
        .linkEmail: ["invalid_input": "a password of 73 bytes or more (the form checks the rest)"],
        .logOut: ["error": "nothing: logging out always goes through (offline, this device forgets the session anyway)"],
        .logRuck: [
            "network": "nothing a fault does: offline, the ruck is kept on this device and synced later",
            "timeout": "nothing a fault does: offline, the ruck is kept on this device and synced later",
        ],
        // Checked on the device, not asked of the service: faults do not reach it.
        .validateHiding: ["error": "onboard --simulate hiding=fail (the apps are not hidden yet)"],
    ]

    /// What makes a call end with a code: a QA fault, a clock shift or an input.
    static func cause(of code: String, for call: ServiceCall) -> String {
        let operation = call.operation
        if let special = specialCauses[operation]?[code] { return special }
        switch code {
        case "success": return "the call succeeding (no faults on)"
        case "network": return "fault network (Ctrl-G › Faults, or --fault network)"
        case "timeout": return "fault timeout (Ctrl-G › Faults, or --fault timeout)"
        case "server_error": return "fault server-error (Ctrl-G › Faults, or --fault server-error)"
        case "rate_limited": return "fault rate-limit (Ctrl-G › Faults, or --fault rate-limit)"
        case "bad_response": return "a remote service answering garbage (onboard-server's dev faults)"
        case "unauthorized":
            let refused: [Operation: String] = [
                .socialSignIn: "fault forged-id-token (Ctrl-G › Faults)",
                .logIn: "a wrong password",
                .verifyPhoneCode: "a wrong code, or Ctrl-G › Clock › +1 hour after it is sent",
            ]
            return refused[operation] ?? "fault reauth-fail (the service turns the session down), or Ctrl-G › Clock › +31 days"
        case "conflict":
            return [.register, .linkEmail].contains(operation)
                ? "an email that already has an account" : "a value someone else already has (a taken name)"
        case "not_found": return operation == .acceptInvite ? "an invite code that does not exist" : "something the service does not know"
        case "invalid_input": return "an input the service turns down though it passes the form's own checks"
        case "error":
            // The first fault whose code this call does not handle on its own lands here.
            let faults = [("network", "network"), ("server_error", "server-error"), ("rate_limited", "rate-limit")]
            if let (_, fault) = faults.first(where: { call.outcomes[$0.0] == nil }) {
                return "fault \(fault) (Ctrl-G › Faults, or --fault \(fault))"
            }
            return "a failure with no branch of its own (a remote service answering garbage)"
        default: return "the service answering \(code)"
        }
    }

    /// An input the rule turns down, in the terms of the rule's own values.
    static func input(failing rule: Rule, of field: Field, on screen: Screen) -> String {
        let count = rule.count ?? 0
        // A slider or range never leaves its bounds: a rule at a bound cannot fail.
        if field.kind.keepsWithinBounds,
            (rule.name == .minValue && count <= field.minimum) || (rule.name == .maxValue && count >= field.maximum)
        {
            return "nothing: the widget keeps \(field.label) from \(field.minimum) to \(field.maximum)"
        }
        let other = screen.fields.first { $0.id == rule.field }?.label ?? rule.field ?? ""
        let what =
            switch rule.name {
            case .required: "leave it empty"
            case .minLength: "type fewer than \(count) characters"
            case .maxLength: "type more than \(count) characters"
            case .email: "type an address with no @"
            case .digits: "type fewer than \(count) digits"
            case .matches: "type something other than \(other)"
            case .positiveNumber: "type 0 or a word"
            case .url: "type an address without http:// or https://"
            case .date: "type a day that does not exist (2023-02-30)"
            case .notFuture: "pick a day after today"
            case .letters: "type a digit"
            case .personName: "type a digit"
            case .alphanumeric: "type a symbol such as !"
            case .phone: "type 3 digits"
            case .minAge: "pick a date less than \(count) years ago"
            case .maxAge: "pick a date more than \(count) years ago"
            case .minValue: "set it below \(count)"
            case .maxValue: "type more than \(count)"
            case .ordered: "put the low end above the high end"
            case .minSelected: "pick fewer than \(count)"
            case .notCommon: "type password1"
            }
        return "on \(screen.id), \(field.label): \(what), then submit"
    }
}
