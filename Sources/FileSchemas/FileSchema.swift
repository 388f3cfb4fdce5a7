import FlowFiles
import Foundation
import ScreenTable
import TerminalUI

/// JSON Schemas (draft 2020-12) for flow and theme files, built from the vocabulary the
/// loaders check (`FilePart`, the enums of kinds, operations, rules and roles), so an
/// editor's YAML language server completes and flags what `onboard lint` would.
public enum FileSchema: String, Sendable, CaseIterable {
    case flow, theme

    /// The schema as pretty JSON with sorted keys: the same bytes every run, for a diff.
    public func json() -> String {
        let object: [String: Any] =
            switch self {
            case .flow: Self.flowSchema()
            case .theme: Self.themeSchema()
            }
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Where the repository keeps it, for `# yaml-language-server: $schema=` lines.
    public var fileName: String { "\(rawValue).schema.json" }

    static let draft = "https://json-schema.org/draft/2020-12/schema"

    // MARK: Flow files

    static func flowSchema() -> [String: Any] {
        var definitions: [String: Any] = [:]
        for part in FilePart.allCases { definitions[part.rawValue] = object(part) }
        return [
            "$schema": draft,
            "title": "Onboard flow file",
            "description":
                "Screens, steps and service calls of one onboarding flow (onboard lint FILE checks the rest: screen ids, reachability, each kind's needs).",
            "$ref": "#/$defs/flow",
            "$defs": definitions,
        ]
    }

    static func object(_ part: FilePart) -> [String: Any] {
        var properties: [String: Any] = [:]
        for key in part.keys { properties[key.name] = shape(key.shape) }
        var schema: [String: Any] = ["type": "object", "additionalProperties": false, "properties": properties]
        let required = part.keys.filter(\.required).map(\.name)
        if !required.isEmpty { schema["required"] = required }
        if part == .action || part == .then {
            // Exactly one step, as the loader asks.
            schema["oneOf"] = FilePart.stepNames.filter { $0 != "on" }.map { ["required": [$0]] }
            schema["dependentRequired"] = ["on": ["call"]]
        }
        return schema
    }

    static func shape(_ shape: FilePart.Shape) -> [String: Any] {
        switch shape {
        // The loader takes any scalar as text (`default: 5`).
        case .text: ["type": ["string", "number", "boolean"]]
        case .flag: ["type": "boolean"]
        case .wholeNumber: ["type": "integer"]
        case .character: ["type": "string", "minLength": 1, "maxLength": 1]
        case .duration(let allowsNever):
            allowsNever
                ? ["anyOf": [duration, ["const": "never"]]]
                : duration
        case .screen: ["type": "string", "description": "a screen id of this file"]
        case .screenKind: ["enum": Screen.Kind.allCases.map(\.rawValue)]
        case .fieldKind: ["enum": Field.Kind.allCases.map(\.rawValue)]
        case .ruleName: ["enum": Rule.Name.allCases.map(\.rawValue)]
        case .operation: ["enum": Operation.allCases.map(\.rawValue)]
        case .guardText: ["type": "string", "pattern": guardPattern]
        case .list(let item): ["type": "array", "items": self.shape(item)]
        case .part(let part): ["$ref": "#/$defs/\(part.rawValue)"]
        case .outcomes:
            [
                "type": "object",
                "propertyNames": ["enum": ResultCode.all.sorted()],
                "additionalProperties": ["anyOf": [["type": "string"], ["$ref": "#/$defs/outcome"]]],
            ]
        case .textMap: ["type": "object", "additionalProperties": self.shape(.text)]
        case .errorCodes:
            ["type": "object", "propertyNames": ["enum": ResultCode.serviceErrors.sorted()], "additionalProperties": ["type": "string"]]
        case .present: ["const": true]
        }
    }

    /// `15m`, `24h`, `1d2h30m` (`DurationText`), above zero.
    static var duration: [String: Any] { ["type": "string", "pattern": "^ *\\+?([0-9]+[smhd])+ *$"] }

    /// `is_anonymous`, `not has_pro`, `KEY == VALUE`, `KEY != VALUE`, `has KEY`
    /// (`Guard(text:)`).
    static var guardPattern: String {
        let names = Guard.Name.allCases.filter { $0 != .equals && $0 != .has }.map(\.rawValue).joined(separator: "|")
        return "^((not )?(\(names))|[^ ]+ (==|!=) [^ ]+|(not )?has [^ ]+)$"
    }

    // MARK: Theme files

    static func themeSchema() -> [String: Any] {
        let colour: [String: Any] = [
            "anyOf": [
                ["type": "integer", "minimum": 0, "maximum": 255],
                ["enum": ["default"] + Theme.colourNames.keys.sorted()],
            ]
        ]
        var style: [String: Any] = [:]
        for key in Theme.styleKeys { style[key] = Theme.colourKeys.contains(key) ? colour : ["type": "boolean"] }
        return [
            "$schema": draft,
            "title": "Onboard theme file",
            "description": "Colours and attributes for each role a screen's cells can have.",
            "type": "object",
            "additionalProperties": false,
            "required": ["roles"],
            "properties": [
                "name": ["type": "string"],
                "roles": [
                    "type": "object",
                    "propertyNames": ["enum": Role.allCases.map(\.rawValue)],
                    "additionalProperties": ["$ref": "#/$defs/style"],
                ],
            ],
            "$defs": ["style": ["type": "object", "additionalProperties": false, "properties": style]],
        ]
    }
}
