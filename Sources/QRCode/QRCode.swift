/// A QR Code (ISO/IEC 18004) as a square of dark and light modules, for a terminal to draw
/// with half blocks: what a phone's camera reads to open a device sign-in's page. The
/// text is encoded in alphanumeric mode when every character allows it (upper case
/// letters, digits, ` $%*+-./:`; a third fewer bits, so a smaller code fits a small
/// terminal), else as UTF-8 bytes; the smallest version that holds it at the error
/// correction level asked for; the mask with the lowest penalty (ISO/IEC 18004 §7.8.3).
/// Follows Project Nayuki's reference algorithm; checked against segno (PyPI).
public struct QRCode: Sendable, Equatable {
    public enum ErrorCorrection: Int, Sendable, CaseIterable {
        /// About 7, 15, 25 and 30 % of the code can be lost and still read.
        case low, medium, quartile, high

        /// The two bits the format information carries (ISO/IEC 18004 Table 12).
        var formatBits: Int { [1, 0, 3, 2][rawValue] }
    }

    public let version: Int
    public let errorCorrection: ErrorCorrection
    public private(set) var mask = 0
    /// Modules per side: `4 × version + 17`.
    public let size: Int
    /// `modules[y][x]`: dark when true.
    public private(set) var modules: [[Bool]]
    private var isFunction: [[Bool]]

    public struct TooLong: Error, Sendable {}

    /// The code for `text`. `version` and `mask` fixed for tests; nil chooses them.
    public init(
        _ text: String, errorCorrection: ErrorCorrection = .medium, version fixedVersion: Int? = nil, mask fixedMask: Int? = nil
    ) throws {
        let segment = Segment(text)
        var chosen: Int?
        for version in (fixedVersion.map { $0...$0 } ?? 1...40) {
            let capacity = Self.dataCodewords(version, errorCorrection) * 8
            if let used = segment.bits(version: version), used <= capacity {
                chosen = version
                break
            }
        }
        guard let version = chosen else { throw TooLong() }
        self.version = version
        self.errorCorrection = errorCorrection
        size = version * 4 + 17
        modules = Array(repeating: Array(repeating: false, count: size), count: size)
        isFunction = modules

        // The data bits, padded to capacity (terminator, to a byte, then 0xEC 0x11 …).
        let capacity = Self.dataCodewords(version, errorCorrection) * 8
        var bits = segment.encoded(version: version)
        bits += Array(repeating: false, count: min(4, capacity - bits.count))
        bits += Array(repeating: false, count: (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count * 8 < capacity {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }

        drawFunctionPatterns()
        drawCodewords(Self.withErrorCorrection(codewords, version: version, errorCorrection))
        if let fixedMask {
            mask = fixedMask
        } else {
            var best = (mask: 0, penalty: Int.max)
            for candidate in 0..<8 {
                applyMask(candidate)
                drawFormatBits(candidate)
                let penalty = penaltyScore()
                if penalty < best.penalty { best = (candidate, penalty) }
                applyMask(candidate)  // undone: a mask is its own inverse
            }
            mask = best.mask
        }
        applyMask(mask)
        drawFormatBits(mask)
    }

    // MARK: Function patterns

    private mutating func setFunction(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y][x] = dark
        isFunction[y][x] = true
    }

    private mutating func drawFunctionPatterns() {
        for i in 0..<size {
            setFunction(6, i, i % 2 == 0)
            setFunction(i, 6, i % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    setFunction(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = Self.alignmentPositions(version)
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                // Not over the three finder patterns.
                if (i == 0 && j == 0) || (i == 0 && j == positions.count - 1) || (i == positions.count - 1 && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { setFunction(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(0)  // reserved now, drawn for real once the mask is chosen
        drawVersion()
    }

    private mutating func drawFormatBits(_ mask: Int) {
        let data = errorCorrection.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 != 0 }
        for i in 0...5 { setFunction(8, i, bit(i)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for i in 9..<15 { setFunction(14 - i, 8, bit(i)) }
        for i in 0..<8 { setFunction(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { setFunction(8, size - 15 + i, bit(i)) }
        setFunction(8, size - 8, true)  // the dark module
    }

    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for i in 0..<18 {
            let dark = (bits >> i) & 1 != 0
            let a = size - 11 + i % 3, b = i / 3
            setFunction(a, b, dark)
            setFunction(b, a, dark)
        }
    }

    static func alignmentPositions(_ version: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var positions = [6]
        var position = version * 4 + 17 - 7
        for _ in 0..<count - 1 {
            positions.insert(position, at: 1)
            position -= step
        }
        return positions
    }

    // MARK: Data

    /// The codewords in the zigzag from the bottom right, two columns at a time, around
    /// the function patterns.
    private mutating func drawCodewords(_ data: [UInt8]) {
        var i = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }  // the vertical timing pattern
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !isFunction[y][x], i < data.count * 8 {
                        modules[y][x] = (data[i >> 3] >> (7 - (i & 7))) & 1 != 0
                        i += 1
                    }
                }
            }
            right -= 2
        }
    }

    private mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] {
                let invert =
                    switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                if invert { modules[y][x].toggle() }
            }
        }
    }
}
