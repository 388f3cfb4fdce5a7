import ScreenTable

/// A flow as a directed graph: every screen a node, every step an edge labelled with what
/// takes it (a button, a result code, a guard). Drawn by `onboard graph`.
public struct FlowGraph: Sendable, Equatable {
    public struct Node: Sendable, Equatable {
        public enum Role: Sendable, Equatable {
            case screen(Screen.Kind)
            /// Where the app starts: the entry's launches come from here.
            case launch
            /// Not a screen: the one before (`back`), the call that failed (`retry`), the
            /// end of the program (`quit`).
            case previous, failedCall, quit
            /// A screen a step names that the file does not have (lint says so too): drawn
            /// red, so the mistake is seen where it is.
            case missing
        }

        public var id: String
        public var title: String
        public var role: Role
        /// No entry, action or outcome leads here (lint reports it too).
        public var unreachable = false
        /// Esc goes back from here: said on the node, not drawn as an edge to a shared
        /// "previous" (issue 32: MIGA's fourteen ran into one far corner).
        public var escGoesBack = false
    }

    public struct Edge: Sendable, Equatable {
        public enum Style: Sendable, Equatable {
            /// A button, a pick, a success, a route: the way forward.
            case normal
            /// A result other than success: the fault and error branches.
            case error
            /// Back, retry or a resume redirect: not a new step forward.
            case secondary
        }

        public var from: String
        public var to: String
        public var label: String
        public var style: Style
    }

    public var title: String
    public var nodes: [Node]
    public var edges: [Edge]

    /// Ids of the pseudo nodes; a screen cannot be named so (ids are plain words).
    public static let launchID = "(launch)", previousID = "(previous)", failedCallID = "(failed call)", quitID = "(quit)"

    public init(flow: Flow) {
        title = flow.title
        let reachable = Reachability.screens(from: flow)
        nodes = [Node(id: Self.launchID, title: "launch", role: .launch)]
        nodes += flow.screens.map {
            Node(id: $0.id, title: $0.title, role: .screen($0.kind), unreachable: !reachable.contains($0.id), escGoesBack: $0.allowsBack)
        }
        var edges: [Edge] = [Edge(from: Self.launchID, to: flow.entry.firstLaunch, label: "first launch", style: .normal)]
        if let signedIn = flow.entry.signedIn { edges.append(Edge(from: Self.launchID, to: signedIn, label: "signed in", style: .normal)) }
        if let signedOut = flow.entry.signedOut {
            edges.append(Edge(from: Self.launchID, to: signedOut, label: "session refused", style: .error))
        }
        if let ended = flow.entry.sessionEnded { edges.append(Edge(from: Self.launchID, to: ended, label: "session ended", style: .error)) }
        for screen in flow.screens { edges += Self.edges(of: screen) }
        self.edges = edges
        let used = Set(edges.map(\.to))
        for (id, role) in [(Self.previousID, Node.Role.previous), (Self.failedCallID, .failedCall), (Self.quitID, .quit)]
        where used.contains(id) {
            nodes.append(Node(id: id, title: String(id.dropFirst().dropLast()), role: role))
        }
        var known = Set(nodes.map(\.id))
        for edge in edges where !known.contains(edge.to) {
            nodes.append(Node(id: edge.to, title: "missing: \(edge.to)", role: .missing))
            known.insert(edge.to)
        }
    }

    /// Screens the steps name that the flow does not have.
    public var missingScreens: [String] {
        nodes.filter { $0.role == .missing }.map(\.id)
    }

    /// Every way out of one screen, in the order the file gives them.
    static func edges(of screen: Screen) -> [Edge] {
        var edges: [Edge] = []
        if let target = screen.resumeAt {
            edges.append(Edge(from: screen.id, to: target, label: "resume", style: .secondary))
        }
        for branch in screen.route {
            edges.append(Edge(from: screen.id, to: branch.go, label: branch.when.map(\.text) ?? "otherwise", style: .normal))
        }
        if let call = screen.call {
            edges += Self.edges(from: screen.id, of: call, prefix: "")
        }
        if let poll = screen.poll {
            edges += Self.edges(from: screen.id, of: poll.call, prefix: "poll ")
        }
        if let choice = screen.choice {
            edges += Self.edges(from: screen.id, of: choice.then, label: "pick \(choice.store)")
        }
        for action in screen.actions {
            var label = action.label
            if let key = action.key { label += " [\(key)]" }
            if let when = action.when { label += " if \(when.text)" }
            edges += Self.edges(from: screen.id, of: action.step, label: label)
        }
        return edges
    }

    static func edges(from screen: String, of step: Step, label: String) -> [Edge] {
        switch step {
        case .go(let target): [Edge(from: screen, to: target, label: label, style: .normal)]
        case .back: [Edge(from: screen, to: previousID, label: "\(label): back", style: .secondary)]
        case .retry: [Edge(from: screen, to: failedCallID, label: "\(label): retry", style: .secondary)]
        case .quit: [Edge(from: screen, to: quitID, label: label, style: .normal)]
        case .notice: [Edge(from: screen, to: screen, label: "\(label): notice", style: .secondary)]
        case .call(let call): edges(from: screen, of: call, prefix: "\(label): ")
        case .branch(let branches):
            branches.map { Edge(from: screen, to: $0.go, label: "\(label): \($0.when.map(\.text) ?? "otherwise")", style: .normal) }
        }
    }

    /// One edge per result code, success first, then the service's codes, `error` last.
    static func edges(from screen: String, of call: ServiceCall, prefix: String) -> [Edge] {
        call.outcomes.sorted { order($0.key) < order($1.key) }.map { code, outcome in
            let target = outcome.back ? previousID : (outcome.go ?? screen)
            let style: Edge.Style = code == "success" ? .normal : .error
            return Edge(from: screen, to: target, label: "\(prefix)\(call.operation.rawValue) on: \(code)", style: style)
        }
    }

    /// Edges between the same two nodes in the same style drawn as one, so a form's five
    /// error results that all stay on it make one loop: `Log In: log_in on: network,
    /// timeout, error`. Labels that do not share a call are put one a line.
    public var drawnEdges: [Edge] {
        var order: [String] = []
        var groups: [String: [Edge]] = [:]
        for edge in edges {
            let key = "\(edge.from)\u{0}\(edge.to)\u{0}\(edge.style)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(edge)
        }
        return order.map { key in
            let group = groups[key]!
            var lines: [String] = []
            var codesByCall: [String: Int] = [:]
            for edge in group {
                if let range = edge.label.firstRange(of: " on: "), let index = codesByCall[String(edge.label[..<range.upperBound])] {
                    lines[index] += ", " + edge.label[range.upperBound...]
                } else {
                    if let range = edge.label.firstRange(of: " on: ") { codesByCall[String(edge.label[..<range.upperBound])] = lines.count }
                    lines.append(edge.label)
                }
            }
            return Edge(from: group[0].from, to: group[0].to, label: lines.joined(separator: "\n"), style: group[0].style)
        }
    }

    private static func order(_ code: String) -> (Int, String) {
        (code == "success" ? 0 : code == "error" ? 2 : 1, code)
    }
}
