import ScreenTable
/// The keys each part of a flow file may hold and the shape of each value. The loader
/// rejects any other key; `onboard schema flow` tells editors the same, so the two cannot
/// drift apart.
public enum FilePart: String, Sendable, CaseIterable {
    case flow, entry, tokens, analytics, screen, action, task, poll, choice, then, outcome, branch, field, rule

    /// What a key's value must be.
    public indirect enum Shape: Sendable, Equatable {
        case text, flag, wholeNumber
        /// One character (a shortcut key).
        case character
        /// `15m`, `24h`, `30d`; with `never` where a lifetime may be endless.
        case duration(allowsNever: Bool)
        /// A screen id of this file.
        case screen
        case screenKind, fieldKind, ruleName, operation
        /// `is_anonymous`, `not has_pro`, `KEY == VALUE`, `has KEY`.
        case guardText
        case list(Shape)
        case part(FilePart)
        /// Result codes to a screen id or an outcome.
        case outcomes
        /// Context keys to text (`set`), or service error codes to the flow's own codes.
        case textMap, errorCodes
        /// Only `true`: a key whose presence is the step (`back: true`, `retry: true`).
        case present
    }

    public struct Key: Sendable, Equatable {
        public var name: String
        public var shape: Shape
        public var required: Bool

        init(_ name: String, _ shape: Shape, required: Bool = false) {
            self.name = name
            self.shape = shape
            self.required = required
        }
    }

    /// What steps (an action, a pick's `then`) choose from: exactly one of these.
    static let stepKeys: [Key] = [
        Key("go", .screen), Key("back", .present), Key("call", .operation), Key("on", .outcomes),
        Key("retry", .present), Key("notice", .text), Key("quit", .present), Key("branch", .list(.part(.branch))),
    ]

    public var keys: [Key] {
        switch self {
        case .flow:
            [
                Key("id", .text, required: true), Key("title", .text, required: true), Key("summary", .text),
                Key("entry", .part(.entry), required: true), Key("tokens", .part(.tokens)), Key("analytics", .part(.analytics)),
                Key("screens", .list(.part(.screen)), required: true), Key("service_url", .text), Key("steps", .wholeNumber),
                Key("secrets", .list(.text)),
            ]
        case .entry:
            [
                Key("first_launch", .screen, required: true), Key("signed_in", .screen), Key("resume", .flag),
                Key("signed_out", .screen), Key("session_required", .flag), Key("session_ended", .screen), Key("keep_guest", .flag),
                Key("offline_guest", .text),
            ]
        case .tokens:
            [
                Key("access_ttl", .duration(allowsNever: false)), Key("refresh_ttl", .duration(allowsNever: true)),
                Key("renew_before", .duration(allowsNever: false)),
            ]
        case .analytics:
            [
                Key("start", .text), Key("complete", .text), Key("error", .text), Key("retry", .text), Key("error_codes", .errorCodes),
                Key("consent", .text), Key("renewed", .text), Key("local_id", .flag), Key("step", .text),
                Key("screens", .text), Key("breakdown", .text),
            ]
        case .screen:
            [
                Key("id", .text, required: true), Key("kind", .screenKind, required: true), Key("title", .text), Key("logo", .list(.text)),
                Key("body", .text), Key("bullets", .list(.text)), Key("fields", .list(.part(.field))),
                Key("actions", .list(.part(.action))),
                Key("choice", .part(.choice)), Key("call", .operation), Key("on", .outcomes), Key("load", .list(.operation)),
                Key("back", .flag), Key("resumable", .flag), Key("complete", .flag), Key("track", .list(.text)), Key("items", .text),
                Key("qr", .text),
                Key("empty", .text), Key("route", .list(.part(.branch))), Key("step", .wholeNumber), Key("tasks", .list(.part(.task))),
                Key("report", .text), Key("finished", .text), Key("finished_offline", .text), Key("resume_at", .screen),
                Key("resume_after_complete", .flag), Key("newest_first", .flag), Key("poll", .part(.poll)),
            ]
        case .action:
            [
                Key("label", .text, required: true), Key("key", .character), Key("when", .guardText),
            ] + Self.stepKeys + [
                Key("set", .textMap), Key("cooldown", .duration(allowsNever: false)), Key("validate", .flag), Key("link", .text),
            ]
        case .task:
            [
                Key("label", .text, required: true), Key("call", .operation, required: true), Key("retries", .wholeNumber),
                Key("fallback", .text),
            ]
        case .poll:
            [
                Key("call", .operation, required: true), Key("every", .text), Key("until", .text), Key("withdraw", .operation),
                Key("on", .outcomes),
            ]
        case .choice:
            [
                Key("options", .list(.text)), Key("options_from", .text), Key("store", .text, required: true),
                Key("then", .part(.then), required: true),
            ]
        case .then: Self.stepKeys
        case .outcome: [Key("go", .screen), Key("message", .text), Key("back", .flag), Key("field", .text)]
        case .branch: [Key("when", .guardText), Key("go", .screen, required: true)]
        case .field:
            [
                Key("id", .text, required: true), Key("kind", .fieldKind), Key("label", .text, required: true), Key("placeholder", .text),
                Key("max_length", .wholeNumber), Key("rules", .list(.part(.rule))), Key("options", .list(.text)),
                Key("options_from", .text),
                Key("exclusive", .text), Key("min", .wholeNumber), Key("max", .wholeNumber), Key("default", .text),
                Key("shows_age", .flag), Key("submit_when_full", .flag),
            ]
        case .rule:
            [
                Key("rule", .ruleName, required: true), Key("value", .wholeNumber), Key("field", .text),
                Key("message", .text, required: true),
            ]
        }
    }

    /// The keys of a step, in the order messages list them.
    public static var stepNames: [String] { stepKeys.map(\.name) }

    /// The names alone, for the loader's unknown-key check.
    public var names: Set<String> { Set(keys.map(\.name)) }
}
