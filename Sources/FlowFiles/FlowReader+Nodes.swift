import ScreenTable
import CivilCalendar
import Suggestion
import Yams

/// Reading YAML nodes: typed values, allowed keys and where each problem is.
extension FlowReader {
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
            problems.append(
                Problem(
                    "duplicate keys: \(duplicates.joined(separator: ", "))",
                    at: SourceLocation(file: file, line: context.mark.line, column: context.mark.column)))
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
                problems.append(
                    Problem(
                        "unknown key '\(name)' in \(context); \(Suggestion.hint(for: name, known: allowed.sorted()))", at: location(key)))
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
            problems.append(
                Problem("'\(text)' is not a duration like 15m, 24h or 30d\(allowNever ? " (or never)" : "")", at: location(node)))
            return nil
        }
        return .some(seconds)
    }
}
