import CivilCalendar
import FlowEngine
import Foundation

/// Analytics as JSON Lines: one event per line with its timestamp and the app version.
/// Tokens, passwords and codes never reach it: the engine's events carry none.
/// The log is bounded: past `limitBytes` its oldest half is dropped, and a
/// `log_trimmed` line says how many events went, so nothing fills a disk.
public final class AnalyticsLog {
    public let path: String
    public let limitBytes: Int

    public init(path: String, limitBytes: Int = 1 << 20) {
        self.path = path
        self.limitBytes = limitBytes
    }

    public func append(_ record: AnalyticsRecord) throws {
        var object: [String: Any] = [
            "event": record.name,
            "user_id": record.userID,
            "timestamp": Self.timestamp(record.timestamp),
            "app_version": OnboardVersion.current,
        ]
        for (key, value) in record.properties {
            switch value {
            case .text(let text): object[key] = text
            case .number(let number): object[key] = number
            }
        }
        var line = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        line.append(0x0A)
        try AtomicFile.append(line, to: path)
        try trimIfOverLimit()
    }

    /// Keeps the newest events under half the limit, oldest dropped first.
    private func trimIfOverLimit() throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size > limitBytes, let data = FileManager.default.contents(atPath: path) else { return }
        let lines = data.split(separator: 0x0A)
        var kept: [Data.SubSequence] = []
        var bytes = 0
        for line in lines.reversed() {
            bytes += line.count + 1
            guard bytes <= limitBytes / 2 else { break }
            kept.append(line)
        }
        let dropped = lines.count - kept.count
        var trimmed = Data("{\"dropped\":\(dropped),\"event\":\"log_trimmed\",\"timestamp\":\"\(Self.timestamp(Int64(Date().timeIntervalSince1970 * 1000)))\"}\n".utf8)
        for line in kept.reversed() {
            trimmed.append(contentsOf: line)
            trimmed.append(0x0A)
        }
        try AtomicFile.write(trimmed, to: path)
    }

    /// Events written before the service assigned an id carry a placeholder; this
    /// rewrites them with the real id (spec: fire with a placeholder, backfill later).
    public func backfill(placeholder: String, userID: String) throws {
        guard let data = FileManager.default.contents(atPath: path), var text = String(data: data, encoding: .utf8) else { return }
        let quoted = "\"user_id\":\"\(placeholder)\""
        guard text.contains(quoted) else { return }
        text = text.replacingOccurrences(of: quoted, with: "\"user_id\":\"\(userID)\"")
        try AtomicFile.write(Data(text.utf8), to: path)
    }

    /// Deletes the log: consent was withdrawn.
    public func forget() throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }

    /// Every event in the log, oldest first; unreadable lines are skipped.
    public func events() -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    static func timestamp(_ milliseconds: Int64) -> String {
        Instant.internetTime(milliseconds: milliseconds)
    }
}
