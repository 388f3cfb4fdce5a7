import TerminalUI

/// A QA key script: text typed as it is, named keys in angle brackets (`<Enter>`,
/// `<Tab>`, `<C-c>`), one line a step; `wait:TEXT` waits until the screen shows TEXT;
/// `#` starts a comment line; `<<` types a literal `<`.
public struct KeyScript: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        case keys([Key])
        case wait(String)
        /// `<sms-code>`: the last SMS code the service sent (QA's outbox).
        case smsCode
    }

    public struct ParseError: Error, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public var steps: [Step]

    static let named: [String: Key] = {
        var keys: [String: Key] = [
            "enter": .enter, "tab": .tab, "btab": .backTab, "s-tab": .backTab, "up": .up, "down": .down,
            "left": .left, "right": .right, "esc": .escape, "escape": .escape, "space": .character(" "),
            "bspace": .backspace, "backspace": .backspace, "delete": .delete, "home": .home, "end": .end,
            "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
            "insert": .insert, "ins": .insert,
        ]
        for number in 1...12 { keys["f\(number)"] = .function(number) }
        for letter in "abcdefghijklmnopqrstuvwxyz" { keys["c-\(letter)"] = .control(letter) }
        return keys
    }()

    /// A named key, or one with modifiers written before it as tmux does: `M-b` (Alt-B),
    /// `C-Left`, `S-Home`.
    static func key(named name: String) -> Key? {
        if let key = named[name] { return key }
        let prefixes: [(String, Key.Modifiers)] = [("m-", .alt), ("a-", .alt), ("c-", .control), ("s-", .shift)]
        for (prefix, modifiers) in prefixes where name.hasPrefix(prefix) && name.count > prefix.count {
            let rest = String(name.dropFirst(prefix.count))
            let base = rest.count == 1 ? Key.character(rest.first!) : key(named: rest)
            return base.map { Key.with($0, modifiers) }
        }
        return nil
    }

    public init(steps: [Step]) {
        self.steps = steps
    }

    public static func parse(_ text: String) throws -> KeyScript {
        var steps: [Step] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("wait:") {
                let target = String(line.dropFirst(5))
                guard !target.isEmpty else { throw ParseError(line: index + 1, message: "wait: needs the text to wait for") }
                steps.append(.wait(target))
                continue
            }
            var keys: [Key] = []
            var rest = Substring(line)
            while let character = rest.first {
                rest = rest.dropFirst()
                guard character == "<" else {
                    keys.append(.character(character))
                    continue
                }
                if rest.first == "<" {
                    keys.append(.character("<"))
                    rest = rest.dropFirst()
                    continue
                }
                guard let close = rest.firstIndex(of: ">") else {
                    throw ParseError(line: index + 1, message: "'<' without '>' (type a literal '<' as '<<')")
                }
                let name = rest[..<close].lowercased()
                rest = rest[rest.index(after: close)...]
                if name == "sms-code" {
                    if !keys.isEmpty { steps.append(.keys(keys)) }
                    keys = []
                    steps.append(.smsCode)
                    continue
                }
                guard let key = key(named: name) else {
                    throw ParseError(
                        line: index + 1,
                        message:
                            "unknown key <\(name)>; known: Enter, Tab, BTab, Up, Down, Left, Right, Esc, Space, BSpace, Delete, Insert, Home, End, PgUp, PgDn, F1-F12, C-a…C-z, sms-code, and M- (Alt), C- or S- before a key (M-b, C-Left)"
                    )
                }
                keys.append(key)
            }
            if !keys.isEmpty { steps.append(.keys(keys)) }
        }
        return KeyScript(steps: steps)
    }
}
