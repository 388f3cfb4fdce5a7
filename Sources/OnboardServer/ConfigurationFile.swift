import Foundation
import InputRules
import Suggestion
import Yams

/// `onboard-server`'s configuration file: a YAML mapping with a key for each flag
/// (`sign_in_limit: 60` for `--sign-in-limit 60`). Each value keeps the line and column it
/// was written at, so that whatever is wrong with it is reported there, as a compiler does.
public struct ConfigurationFile {
    public let path: String
    /// Each key's value and where it was written.
    let entries: [String: (value: Node, place: String)]
    /// Keys unknown or set twice: said with the values' problems, all at once.
    let problems: [String]

    /// What is wrong with the file: each problem on a line of its own, `FILE:LINE:COLUMN: …`.
    public struct Problems: Error, CustomStringConvertible {
        public var lines: [String]
        /// In the file's order, as a compiler lists them; problems with no line first. Each
        /// is made inert: it quotes the file, which the operator's terminal must not obey.
        public init(lines: [String]) {
            func position(_ line: String) -> (Int, Int) {
                let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count == 4, let row = Int(parts[1]), let column = Int(parts[2]) else { return (0, 0) }
                return (row, column)
            }
            self.lines = lines.enumerated().sorted {
                let (a, b) = (position($0.element), position($1.element))
                return (a.0, a.1, $0.offset) < (b.0, b.1, $1.offset)
            }.map { $0.element.madeInert(keepingNewlines: false) }
        }
        public var description: String { lines.joined(separator: "\n") }
    }

    /// Reads the file (a file that is not YAML is a problem at once); `known` are its keys,
    /// each unknown one reported with the key it most likely meant.
    public static func load(_ path: String, known: [String]) throws(Problems) -> ConfigurationFile {
        let text = try readText(path)
        let document: Node?
        do {
            document = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Problems(lines: syntaxProblems(error, in: path, text: text))
        } catch {
            throw Problems(lines: ["\(path): \(error)"])
        }
        guard let document else { return ConfigurationFile(path: path, entries: [:], problems: []) }
        guard let mapping = document.mapping else {
            throw Problems(lines: ["\(place(path, document)): expected keys and values, like port: 8080"])
        }
        var entries: [String: (value: Node, place: String)] = [:]
        var problems: [String] = []
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? "\(keyNode)"
            let at = place(path, keyNode)
            if let earlier = entries[key] {
                problems.append("\(at): \(key) is set twice; the first is at \(earlier.place)")
            } else if !known.contains(key) {
                problems.append("\(at): unknown key '\(key)'; " + Suggestion.hint(for: key, known: known))
            } else {
                entries[key] = (value, at)
            }
        }
        return ConfigurationFile(path: path, entries: entries, problems: problems)
    }

    /// `FILE:LINE:COLUMN`, where a node was written.
    static func place(_ path: String, _ node: Node) -> String {
        guard let mark = node.mark else { return path }
        return "\(path):\(mark.line):\(mark.column)"
    }

    /// The file's text; what keeps it from being read said plainly, at the first byte that
    /// is not UTF-8 when that is what is wrong.
    static func readText(_ path: String) throws(Problems) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw Problems(lines: ["\(path): no such file"]) }
        guard !isFolder.boolValue else { throw Problems(lines: ["\(path): is a folder, not a configuration file"]) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problems(lines: ["\(path): cannot be read (not allowed)"])
        }
        let bytes = [UInt8](data)
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: break decoding
            case .error:
                let (line, column) = position(ofByte: offset, in: bytes)
                throw Problems(lines: [
                    "\(path):\(line):\(column): not UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true))); save the file as UTF-8"
                ])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Line and column (in characters) of a byte offset, both from 1.
    static func position(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes[..<min(offset, bytes.count)]
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = before.count { $0 == 0x0A } + 1
        return (line, String(decoding: bytes[lineStart..<before.endIndex], as: UTF8.self).count + 1)
    }

    /// A YAML syntax error as `FILE:LINE:COLUMN: what`, without libyaml's echo of the text
    /// (one line for each key set twice).
    static func syntaxProblems(_ error: YamlError, in path: String, text: String) -> [String] {
        switch error {
        case .reader(let problem, let offset, _, _):
            guard let offset else { return ["\(path): not YAML: \(problem)"] }
            let (line, column) = position(ofByte: offset, in: Array(text.utf8))
            return ["\(path):\(line):\(column): not YAML: \(problem)"]
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return ["\(path):\(mark.line):\(mark.column): not YAML: \(problem)" + (context.map { " \($0.text)" } ?? "")]
        case .duplicatedKeysInMapping(let duplicates, let context):
            // libyaml marks the mapping; the key written again is where the fix goes.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let indent = String(repeating: " ", count: max(context.mark.column - 1, 0))
            return duplicates.sorted().map { key in
                let written = lines.indices.filter {
                    lines[$0].hasPrefix(indent + key)
                        && lines[$0].dropFirst(indent.count + key.count).drop(while: { $0 == " " }).hasPrefix(":")
                }
                guard written.count >= 2 else { return "\(path):\(context.mark.line):\(context.mark.column): \(key) is set twice" }
                return
                    "\(path):\(written[1] + 1):\(indent.count + 1): \(key) is set twice; the first is at \(path):\(written[0] + 1):\(indent.count + 1)"
            }
        default:
            return ["\(path): not YAML: \(error)"]
        }
    }
}
