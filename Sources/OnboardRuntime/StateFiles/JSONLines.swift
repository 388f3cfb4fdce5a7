import FoundationEssentials

/// A file of one JSON value per line (the analytics log, the delivery queue): a line
/// appended, read whole, written whole and atomically, and cut to its newest lines when
/// it grows too big. Every reader and writer of such a file goes through here.
enum JSONLines {
    /// One more line at the end, synced (`AtomicFile.append`).
    static func append(_ line: Data, to path: String) throws {
        try AtomicFile.append(line + [0x0A], to: path)
    }

    static func read(_ path: String) -> [Data] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.split(separator: 0x0A).map { Data($0) }
    }

    static func write(_ lines: [Data], to path: String) throws {
        var data = Data()
        for line in lines {
            data.append(line)
            data.append(0x0A)
        }
        try AtomicFile.write(data, to: path)
    }

    /// The file is over `limitBytes`: its newest lines that fit in half of it (the rest to
    /// be dropped, oldest first). Nil while the file is within its limit.
    static func newestHalf(_ path: String, limitBytes: Int) -> (kept: [Data], dropped: [Data])? {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size > limitBytes else { return nil }
        let lines = read(path)
        var bytes = 0
        let kept = lines.reversed().prefix { line in
            bytes += line.count + 1
            return bytes <= limitBytes / 2
        }
        return (Array(kept.reversed()), Array(lines.dropLast(kept.count)))
    }
}
