import FoundationEssentials
import FlowEngine

/// What QA has reached of a flow against all there is: `onboard coverage` and the QA
/// console's "Seen / not yet seen" page.
public struct CoverageReport: Sendable {
    public struct Section: Sendable, Equatable {
        public var name: String
        public var seen: [CoverageMap.Item]
        public var unseen: [CoverageMap.Item]
    }

    public var map: CoverageMap
    public var seen: Set<Reach>

    public init(map: CoverageMap, seen: Set<Reach>) {
        self.map = map
        self.seen = seen
    }

    public var sections: [Section] {
        let groups: [(String, (Reach) -> Bool)] = [
            ("Screens", { if case .screen = $0 { true } else { false } }),
            ("Result branches", { if case .result = $0 { true } else { false } }),
            ("Validation messages", { if case .message = $0 { true } else { false } }),
        ]
        return groups.map { name, belongs in
            let items = map.items.filter { belongs($0.reach) }
            return Section(name: name, seen: items.filter { seen.contains($0.reach) }, unseen: items.filter { !seen.contains($0.reach) })
        }
    }

    public var seenCount: Int { map.items.filter { seen.contains($0.reach) }.count }

    /// `14 of 20 (70%)`.
    static func figure(_ part: Int, of whole: Int) -> String {
        "\(part) of \(whole) (\(whole == 0 ? 100 : part * 100 / whole)%)"
    }

    public var summary: String {
        "\(map.flow.title): \(Self.figure(seenCount, of: map.items.count)) seen"
    }

    /// The report as text: per section, what is not yet seen (with how) first.
    public func text(showingSeen: Bool = true) -> String {
        var lines = [summary]
        for section in sections {
            lines.append("")
            let total = section.seen.count + section.unseen.count
            lines.append("\(section.name): " + (total == 0 ? "none in this flow" : Self.figure(section.seen.count, of: total)))
            for item in section.unseen {
                lines.append("  - \(Self.label(item)) — \(item.how)")
            }
            if showingSeen {
                for item in section.seen { lines.append("  ✓ \(Self.label(item))") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func label(_ item: CoverageMap.Item) -> String {
        if case .screen(let id) = item.reach { return "\(id) (\(item.title))" }
        return "\(item.reach.screen) · \(item.title)"
    }

    /// For the QA console's page: the figures, then what is not yet seen with how, as
    /// many as the screen has room for (`onboard coverage` lists them all).
    public var consoleLines: [String] {
        let figures = sections.map { "\($0.name.lowercased()) \($0.seen.count)/\($0.seen.count + $0.unseen.count)" }
        var lines = ["\(Self.figure(seenCount, of: map.items.count)) seen: \(figures.joined(separator: ", "))"]
        let unseen = sections.flatMap(\.unseen)
        lines.append(unseen.isEmpty ? "Everything has been seen." : "Not yet seen (all of them: onboard coverage \(map.flow.id)):")
        lines += unseen.map { "\(Self.label($0)) — \($0.how)" }
        return lines
    }

    /// `{flow, seen, total, items: [{id, kind, screen, title, how, seen}]}`.
    public func json() -> String {
        let items = map.items.map { item in
            let kind =
                switch item.reach {
                case .screen: "screen"
                case .result: "result"
                case .message: "message"
                }
            return JSONItem(
                id: item.reach.id, kind: kind, screen: item.reach.screen, title: item.title, how: item.how, seen: seen.contains(item.reach))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let report = JSONReport(flow: map.flow.id, seen: seenCount, total: map.items.count, items: items)
        // Strings, numbers and booleans: nothing here can fail to encode.
        guard let data = try? encoder.encode(report) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private struct JSONReport: Encodable {
        var flow: String
        var seen: Int
        var total: Int
        var items: [JSONItem]
    }

    private struct JSONItem: Encodable {
        var id: String
        var kind: String
        var screen: String
        var title: String
        var how: String
        var seen: Bool
    }
}
