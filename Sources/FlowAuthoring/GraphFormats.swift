/// `FlowGraph` as text other tools draw: Graphviz's DOT and Mermaid (which GitHub and
/// GitLab render inside Markdown).
extension FlowGraph {
    public func dot() -> String {
        var lines = [
            "digraph \(quoted(title)) {",
            "  graph [rankdir=TB, fontname=\"Helvetica\", label=\(quoted(title)), labelloc=t];",
            "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        for node in nodes {
            var attributes = ["label=\(quoted(label(of: node, lineBreak: "\n")))"]
            switch node.role {
            case .launch: attributes += ["shape=circle"]
            case .previous, .failedCall, .quit: attributes += ["shape=plaintext", "fontcolor=gray40"]
            case .screen(.error): attributes += ["color=firebrick", "fontcolor=firebrick"]
            case .missing: attributes += ["shape=octagon", "color=firebrick", "fontcolor=firebrick", "style=bold"]
            case .screen: break
            }
            if node.unreachable { attributes += ["style=\"rounded,dashed\"", "color=gray50"] }
            lines.append("  \(quoted(node.id)) [\(attributes.joined(separator: ", "))];")
        }
        for edge in drawnEdges {
            var attributes = ["label=\(quoted(edge.label))"]
            switch edge.style {
            case .normal: break
            case .error: attributes += ["color=firebrick", "fontcolor=firebrick", "style=dashed"]
            case .secondary: attributes += ["color=gray40", "fontcolor=gray40", "style=dotted"]
            }
            // A screen's loops back to itself: the way forward on its left, the refusals on
            // its right, so their labels do not lie on each other (issue 32: ABBY's code screen).
            if edge.from == edge.to, edge.style != .error { attributes += ["tailport=w", "headport=w"] }
            lines.append("  \(quoted(edge.from)) -> \(quoted(edge.to)) [\(attributes.joined(separator: ", "))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    public func mermaid() -> String {
        // Mermaid ids are positional: screen ids such as `end` are Mermaid keywords.
        var ids: [String: String] = [:]
        for (index, node) in nodes.enumerated() { ids[node.id] = "n\(index)" }
        // Every edge's ends are nodes (a missing screen is one); never crash on a file.
        let id = { (screen: String) in ids[screen] ?? "missing" }
        var lines = ["flowchart TD"]
        for node in nodes {
            let text = mermaidText(label(of: node, lineBreak: "\n")).replacing("\n", with: "<br/>")
            let shape =
                switch node.role {
                case .launch: "((\"\(text)\"))"
                case .previous, .failedCall, .quit: "[/\"\(text)\"/]"
                case .screen: "[\"\(text)\"]"
                case .missing: "{{\"\(text)\"}}"
                }
            lines.append("  \(id(node.id))\(shape)")
        }
        var errorLinks: [Int] = [], secondaryLinks: [Int] = []
        for (index, edge) in drawnEdges.enumerated() {
            let arrow = edge.style == .normal ? "-->" : "-.->"
            if edge.style == .error { errorLinks.append(index) }
            if edge.style == .secondary { secondaryLinks.append(index) }
            let label = mermaidText(edge.label).replacing("\n", with: "<br/>")
            lines.append("  \(id(edge.from)) \(arrow)|\"\(label)\"| \(id(edge.to))")
        }
        lines.append("  classDef errorScreen stroke:#b22222,color:#b22222")
        lines.append("  classDef unreachable stroke-dasharray:5 5,color:#888888")
        let errorScreens = nodes.filter { $0.role == .screen(.error) || $0.role == .missing }.map { id($0.id) }
        let unreachable = nodes.filter(\.unreachable).map { id($0.id) }
        if !errorScreens.isEmpty { lines.append("  class \(errorScreens.joined(separator: ",")) errorScreen") }
        if !unreachable.isEmpty { lines.append("  class \(unreachable.joined(separator: ",")) unreachable") }
        if !errorLinks.isEmpty {
            lines.append("  linkStyle \(errorLinks.map(String.init).joined(separator: ",")) stroke:#b22222,color:#b22222")
        }
        if !secondaryLinks.isEmpty { lines.append("  linkStyle \(secondaryLinks.map(String.init).joined(separator: ",")) stroke:#888888") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Title, then `id · kind`, then whether Esc goes back, then a warning for a screen
    /// nothing leads to.
    private func label(of node: Node, lineBreak: String) -> String {
        guard case .screen(let kind) = node.role else { return node.title }
        var parts = [node.title.isEmpty ? node.id : node.title, "\(node.id) · \(kind.rawValue)"]
        if node.escGoesBack { parts.append("Esc: back") }
        if node.unreachable { parts.append("unreachable") }
        return parts.joined(separator: lineBreak)
    }

    private func quoted(_ text: String) -> String {
        "\""
            + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            .replacing("\n", with: "\\n") + "\""
    }

    /// Mermaid's entity codes for the characters its quoted labels cannot hold.
    /// Mermaid reads labels as HTML and `#…;` as entities: a button `<Tab>` or a label
    /// `#1;` stays what it says. `#` first, so the entities written here stay whole.
    private func mermaidText(_ text: String) -> String {
        text.replacing("#", with: "#35;").replacing("\"", with: "#quot;").replacing("|", with: "#124;")
            .replacing("<", with: "#lt;").replacing(">", with: "#gt;")
    }
}
