import CivilCalendar
import FlowEngine
import Foundation

/// Analytics as JSON Lines: one event per line with its timestamp and the app version.
/// Tokens, passwords and codes never reach it: the engine's events carry none.
public final class AnalyticsLog {
    public let path: String

    public init(path: String) {
        self.path = path
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
