/// One session asked of the zygote: its command line (after the program's name) and its
/// whole environment, as NUL-separated strings, the argument count first.
struct ZygoteRequest: Equatable {
    var arguments: [String]
    var environment: [String: String]

    var encoded: [UInt8] {
        let strings = ["\(arguments.count)"] + arguments + environment.map { "\($0.key)=\($0.value)" }
        return strings.flatMap { Array($0.utf8) + [0] }
    }

    /// nil for anything not made by `encoded` (a NUL inside a string cannot be sent).
    init?(decoding bytes: some BidirectionalCollection<UInt8>) {
        guard bytes.last == 0 else { return nil }
        let strings = bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard let count = strings.first.flatMap({ Int($0) }), count >= 0, count < strings.count else { return nil }
        arguments = Array(strings[1..<(count + 1)])
        var environment: [String: String] = [:]
        for entry in strings[(count + 1)...] {
            guard let equals = entry.firstIndex(of: "=") else { return nil }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        self.environment = environment
    }

    init(arguments: [String], environment: [String: String]) {
        self.arguments = arguments
        self.environment = environment
    }
}
