import ScreenTable
import Suggestion
import Yams

/// A form's fields and their validation rules.
extension FlowReader {
    mutating func readField(_ node: Node, in context: String) -> Field? {
        guard let map = mapping(node, "a field") else { return nil }
        checkKeys(map, allowed: FilePart.field.names, in: "a field of \(context)")
        guard let id = requiredString(map, "id", in: "a field of \(context)") else { return nil }
        guard let label = requiredString(map, "label", in: "field '\(id)' of \(context)") else { return nil }
        var kind = Field.Kind.text
        if let text = string(map, "kind") {
            if let known = Field.Kind(rawValue: text) {
                kind = known
            } else {
                problems.append(
                    Problem(
                        "unknown field kind '\(text)'; \(Suggestion.hint(for: text, known: Field.Kind.allCases.map(\.rawValue)))",
                        at: map["kind"].map(location) ?? start))
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
            if map["options"] != nil {
                problems.append(Problem("'options' belongs to select and multi fields, not \(kind.rawValue)", at: here))
            }
        }
        for ruleNode in map["rules"]?.sequence ?? [] {
            if let rule = readRule(ruleNode, field: id) { field.rules.append(rule) }
        }
        return field
    }

    mutating func readRule(_ node: Node, field: String) -> Rule? {
        guard let map = mapping(node, "a rule") else { return nil }
        let context = "a rule of field '\(field)'"
        checkKeys(map, allowed: FilePart.rule.names, in: context)
        guard let nameText = requiredString(map, "rule", in: context) else { return nil }
        guard let name = Rule.Name(rawValue: nameText) else {
            problems.append(
                Problem(
                    "unknown validation rule '\(nameText)'; \(Suggestion.hint(for: nameText, known: Rule.Name.allCases.map(\.rawValue)))",
                    at: map["rule"].map(location) ?? start))
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
        case .optionalFieldID:
            rule.field = string(map, "field")
        }
        return rule
    }
}
