/// How hard a masked code is to read (ISO/IEC 18004 §7.8.3): long runs, 2×2 blocks,
/// finder-like patterns, and an unbalanced share of dark modules each cost.
extension QRCode {
    func penaltyScore() -> Int {
        var result = 0
        for line in 0..<2 {
            for a in 0..<size {
                var runDark = false
                var runLength = 0
                var history = Array(repeating: 0, count: 7)
                for b in 0..<size {
                    let dark = line == 0 ? modules[a][b] : modules[b][a]
                    if dark == runDark {
                        runLength += 1
                        if runLength == 5 { result += 3 } else if runLength > 5 { result += 1 }
                    } else {
                        addHistory(runLength, &history)
                        if !runDark { result += finderLikePatterns(history) * 40 }
                        runDark = dark
                        runLength = 1
                    }
                }
                if runDark {
                    addHistory(runLength, &history)
                    runLength = 0
                }
                addHistory(runLength + size, &history)
                result += finderLikePatterns(history) * 40
            }
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let dark = modules[y][x]
                if dark == modules[y][x + 1], dark == modules[y + 1][x], dark == modules[y + 1][x + 1] { result += 3 }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        let total = size * size
        result += ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * 10
        return result
    }

    /// The light border before the first run counts as light.
    private func addHistory(_ length: Int, _ history: inout [Int]) {
        history.removeLast()
        history.insert(history[0] == 0 ? length + size : length, at: 0)
    }

    /// 1:1:3:1:1 with 4 light on one side, as a finder pattern looks.
    private func finderLikePatterns(_ history: [Int]) -> Int {
        let n = history[1]
        let core = n > 0 && history[2] == n && history[3] == n * 3 && history[4] == n && history[5] == n
        return (core && history[0] >= n * 4 && history[6] >= n ? 1 : 0) + (core && history[6] >= n * 4 && history[0] >= n ? 1 : 0)
    }
}
