/// What to say after "unknown X 'name'": the known word it was most likely meant to be,
/// as git and cargo do ("did you mean 'title'?"), or the whole list when none is close.
public enum Suggestion {
    public static func hint(for name: String, known: [String]) -> String {
        if let match = closest(to: name, in: known) { return "did you mean '\(match)'?" }
        return "known: " + known.joined(separator: ", ")
    }

    /// The known word fewest edits away (ignoring case), if it is close enough to be a
    /// slip: at most a third of the word's letters, and at most 3.
    public static func closest(to name: String, in known: [String]) -> String? {
        let lowered = name.lowercased()
        let limit = min(3, max(1, lowered.count / 3))
        return
            known
            .map { (word: $0, distance: distance(lowered, $0.lowercased())) }
            .filter { $0.distance <= limit }
            .min { ($0.distance, $0.word) < ($1.distance, $1.word) }?.word
    }

    /// Damerau-Levenshtein (optimal string alignment): a swapped pair of letters is one slip.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
