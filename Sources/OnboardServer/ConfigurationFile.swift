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
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problems(lines: ["\(path): cannot be read" + (FileManager.default.fileExists(atPath: path) ? " (not UTF-8, or not allowed)" : ": no such file")])
        }
        let document: Node?
        do {
            document = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Problems(lines: [syntaxProblem(error, in: path)])
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

    /// A YAML syntax error as `FILE:LINE:COLUMN: what`, without libyaml's echo of the text.
    static func syntaxProblem(_ error: YamlError, in path: String) -> String {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return "\(path):\(mark.line):\(mark.column): not YAML: \(problem)" + (context.map { " \($0.text)" } ?? "")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return "\(path):\(context.mark.line):\(context.mark.column): set twice: " + duplicates.sorted().joined(separator: ", ")
        default:
            return "\(path): not YAML: \(error)"
        }
    }
}
