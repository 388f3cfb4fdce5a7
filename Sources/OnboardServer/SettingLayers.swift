import Foundation
import Yams

/// A setting of `onboard-server`, named the three ways an operator can give it:
/// `sign_in_limit` in the configuration file, `--sign-in-limit`, `$ONBOARD_SIGN_IN_LIMIT`.
public struct SettingName: Sendable {
    public let key: String
    public let variable: String
    public var flag: String { "--" + key.replacingOccurrences(of: "_", with: "-") }

    /// `variable`: where an older name is kept (`ONBOARD_DATABASE_URL`).
    public init(_ key: String, variable: String? = nil) {
        self.key = key
        self.variable = variable ?? "ONBOARD_" + key.uppercased()
    }
}

/// Where a setting's value was given, strongest first.
public enum SettingSource: Sendable, Comparable { case flag, environment, file }

/// Each setting from its flag, else its environment variable, else the configuration file,
/// else its default. Whatever is wrong is collected, each problem said where the value was
/// given (`FILE:LINE:COLUMN`, `--flag`, `$VARIABLE`), so an operator fixes them all at once.
public struct SettingLayers {
    /// A value and where it was given.
    public struct Given<Value> {
        public var value: Value
        public var source: SettingSource
        /// Where, as the start of a problem: `onboard.yaml:3:16: port`, `--port`, `$ONBOARD_PORT`.
        public var place: String
    }

    let file: ConfigurationFile?
    let environment: [String: String]
    public private(set) var problems: [String] = []
    /// An environment variable set over the file's value, said by `check-config`.
    public private(set) var overrides: [String] = []

    public init(file: ConfigurationFile?, environment: [String: String]) {
        self.file = file
        self.environment = environment
        problems = file?.problems ?? []
    }

    /// `place` starts the line (`--port`, `onboard.yaml:3:7: port`); empty when the message
    /// says its own place.
    public mutating func problem(_ message: String, at place: String) {
        problems.append(place.isEmpty ? message : "\(place) \(message)")
    }

    /// A value given in a weaker place that a stronger one overrules (the store's two
    /// spellings), said by `check-config` and at start.
    public mutating func overrule(_ weaker: String, by stronger: String) {
        overrides.append("\(stronger) is used in place of \(weaker)")
    }

    /// The setting's text as given, flag first; a list or a table in the file is a problem.
    public mutating func text(_ name: SettingName, flag: String?) -> Given<String>? {
        if let flag { return Given(value: flag, source: .flag, place: name.flag) }
        if let variable = fromEnvironment(name) { return variable }
        guard let (node, place) = fromFile(name) else { return nil }
        guard let text = node.scalar?.string else {
            problem("must be one value, not a list or a table", at: place)
            return nil
        }
        guard !text.isEmpty, text != "~" else {
            problem("has no value", at: place)
            return nil
        }
        return Given(value: text, source: .file, place: place)
    }

    /// A whole number in `range`; nil when not given or not usable (a problem is recorded).
    public mutating func number(_ name: SettingName, flag: Int?, in range: ClosedRange<Int>) -> Int? {
        guard let given = text(name, flag: flag.map(String.init)) else { return nil }
        guard let number = Int(given.value.trimmingCharacters(in: .whitespaces)) else {
            problem("must be a whole number, not '\(given.value)'", at: given.place)
            return nil
        }
        guard range.contains(number) else {
            let bounds = range.upperBound == .max ? "at least \(range.lowerBound)" : "between \(range.lowerBound) and \(range.upperBound)"
            problem("must be \(bounds), not \(number)", at: given.place)
            return nil
        }
        return number
    }

    /// On or off: a flag given is on; `true`/`false` (or yes/no, on/off, 1/0) elsewhere.
    public mutating func isOn(_ name: SettingName, flag: Bool) -> Bool {
        switched(name, flag: flag)?.value ?? false
    }

    /// On or off and where that was said; nil when not given (or not usable: a problem is
    /// recorded).
    public mutating func switched(_ name: SettingName, flag: Bool) -> Given<Bool>? {
        guard let given = text(name, flag: flag ? "true" : nil) else { return nil }
        switch given.value.lowercased() {
        case "true", "yes", "on", "1": return Given(value: true, source: given.source, place: given.place)
        case "false", "no", "off", "0": return Given(value: false, source: given.source, place: given.place)
        default:
            problem("must be true or false, not '\(given.value)'", at: given.place)
            return nil
        }
    }

    /// A file's path: one written in the configuration file is relative to that file's
    /// folder (as `include` is in nginx), so the file means the same from any working folder.
    public mutating func path(_ name: SettingName, flag: String?) -> Given<String>? {
        guard var given = text(name, flag: flag) else { return nil }
        if given.source == .file, let file { given.value = Self.resolve(given.value, besideFile: file.path) }
        return given
    }

    /// `path` read from beside `file`: itself when absolute.
    public static func resolve(_ path: String, besideFile file: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
    }

    /// A list: the flag repeated, a comma-separated variable, or a YAML list (one value is
    /// a list of one).
    public mutating func list(_ name: SettingName, flag: [String]) -> Given<[String]>? {
        if !flag.isEmpty { return Given(value: flag, source: .flag, place: name.flag) }
        if let variable = fromEnvironment(name) {
            let items = variable.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return Given(value: items, source: .environment, place: variable.place)
        }
        guard let (node, place) = fromFile(name) else { return nil }
        if let sequence = node.sequence {
            var items: [String] = []
            for item in sequence {
                guard let text = item.scalar?.string else {
                    problem("must be a list of single values", at: ConfigurationFile.place(file?.path ?? "", item) + ": \(name.key)")
                    return nil
                }
                items.append(text)
            }
            return Given(value: items, source: .file, place: place)
        }
        return text(name, flag: nil).map { Given(value: [$0.value], source: $0.source, place: $0.place) }
    }

    /// The file's value as YAML, for a setting that may be a table there (the identity
    /// providers, written in place).
    public func table(_ name: SettingName, flag: String?) -> Given<Node>? {
        guard flag == nil, environment[name.variable]?.isEmpty ?? true, let (node, place) = fromFile(name), node.mapping != nil else {
            return nil
        }
        return Given(value: node, source: .file, place: place)
    }

    /// The configuration file's path, which a table's own paths are relative to.
    public var filePath: String? { file?.path }

    private mutating func fromEnvironment(_ name: SettingName) -> Given<String>? {
        guard let value = environment[name.variable], !value.isEmpty else { return nil }
        if let (_, place) = fromFile(name) { overrides.append("$\(name.variable) is used in place of \(place)") }
        return Given(value: value, source: .environment, place: "$" + name.variable)
    }

    private func fromFile(_ name: SettingName) -> (Node, String)? {
        guard let file, let entry = file.entries[name.key] else { return nil }
        return (entry.value, ConfigurationFile.place(file.path, entry.value) + ": \(name.key)")
    }
}
