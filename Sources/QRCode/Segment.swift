/// The text as one segment: alphanumeric when every character allows it, else UTF-8 bytes.
struct Segment {
    static let alphanumerics = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")

    let alphanumeric: Bool
    let bytes: [UInt8]
    let characters: [Character]

    init(_ text: String) {
        characters = Array(text)
        alphanumeric = characters.allSatisfy(Self.alphanumerics.contains)
        bytes = Array(text.utf8)
    }

    var count: Int { alphanumeric ? characters.count : bytes.count }

    /// Bits in the character count (ISO/IEC 18004 Table 3).
    func countBits(_ version: Int) -> Int {
        switch (alphanumeric, version) {
        case (true, ...9): 9
        case (true, ...26): 11
        case (true, _): 13
        case (false, ...9): 8
        case (false, _): 16
        }
    }

    /// Bits it takes at this version, nil when its count does not fit the count field.
    func bits(version: Int) -> Int? {
        guard count < 1 << countBits(version) else { return nil }
        let data = alphanumeric ? count / 2 * 11 + count % 2 * 6 : count * 8
        return 4 + countBits(version) + data
    }

    func encoded(version: Int) -> [Bool] {
        var bits: [Bool] = []
        func append(_ value: Int, _ length: Int) {
            for i in (0..<length).reversed() { bits.append((value >> i) & 1 != 0) }
        }
        append(alphanumeric ? 0b0010 : 0b0100, 4)
        append(count, countBits(version))
        if alphanumeric {
            let values = characters.compactMap { Self.alphanumerics.firstIndex(of: $0) }  // all there: `alphanumeric`
            var i = 0
            while i + 1 < values.count {
                append(values[i] * 45 + values[i + 1], 11)
                i += 2
            }
            if i < values.count { append(values[i], 6) }
        } else {
            for byte in bytes { append(Int(byte), 8) }
        }
        return bits
    }
}
