import CivilCalendar
import FlowEngine
import FoundationEssentials
import Installation
import ServiceAPI

/// Analytics as JSON Lines: one event per line with its id, flow, screen, timestamp and
/// the app version. Tokens, passwords and codes never reach it: the engine's events carry
/// none. The log is bounded: past `limitBytes` its oldest half is dropped, and a
/// `log_trimmed` line says how many events went, so nothing fills a disk.
public final class AnalyticsLog {
    public let path: String
    public let flowID: String
    public let limitBytes: Int

    public init(path: String, flowID: String = "", limitBytes: Int = 1 << 20) {
        self.path = path
        self.flowID = flowID
        self.limitBytes = limitBytes
    }

    /// Writes the record, given its id now (so however often it is delivered, the service
    /// keeps it once); the event as it travels.
    @discardableResult
    public func append(_ record: AnalyticsRecord) throws -> AnalyticsEvent {
        let event = event(for: record)
        try write(event)
        return event
    }

    /// The record as it travels, its id made now.
    public func event(for record: AnalyticsRecord) -> AnalyticsEvent {
        Self.event(record, flowID: flowID)
    }

    /// Writes an event made by `event(for:)`: flat, its properties beside its names.
    public func write(_ event: AnalyticsEvent) throws {
        try JSONLines.append(try Self.encoder.encode(LogLine(event: event)), to: path)
        try trimIfOverLimit()
    }

    /// Sorted keys, slashes as they are: a line reads the same however it was made.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// An event as one line: flat, a property beside the event's names (and over one of
    /// them, should a flow name a property so).
    struct LogLine: Encodable {
        var event: AnalyticsEvent

        struct Key: CodingKey {
            var stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var names: [String: FieldValue] = [
                "id": .text(event.id), "event": .text(event.event), "flow": .text(event.flow), "user_id": .text(event.userID),
                "anonymous_id": .text(event.anonymousID), "timestamp": .text(event.timestamp), "app_version": .text(event.appVersion),
            ]
            if let screen = event.screen { names["screen"] = .text(screen) }
            names.merge(event.properties) { _, property in property }
            var line = encoder.container(keyedBy: Key.self)
            for (name, value) in names {
                let key = Key(stringValue: name)
                switch value {
                case .text(let text): try line.encode(text, forKey: key)
                case .number(let number):
                    if let whole = Int64(exactly: number) {
                        try line.encode(whole, forKey: key)
                    } else {
                        try line.encode(number, forKey: key)
                    }
                case .flag(let flag): try line.encode(flag, forKey: key)
                case .list(let list): try line.encode(list, forKey: key)
                }
            }
        }
    }

    /// The record as it travels: a fresh UUID, the app's version, properties as values.
    static func event(_ record: AnalyticsRecord, flowID: String) -> AnalyticsEvent {
        AnalyticsEvent(
            id: UUID().uuidString.lowercased(), event: record.name, flow: flowID, screen: record.screen, userID: record.userID,
            anonymousID: record.anonymousID, timestamp: timestamp(record.timestamp), appVersion: OnboardVersion.current,
            properties: record.properties.mapValues { value in
                switch value {
                case .text(let text): .text(text)
                case .number(let number): .number(Double(number))
                }
            })
    }

    /// Keeps the newest events under half the limit, oldest dropped first.
    private func trimIfOverLimit() throws {
        guard let (kept, dropped) = JSONLines.newestHalf(path, limitBytes: limitBytes) else { return }
        let note =
            "{\"dropped\":\(dropped.count),\"event\":\"log_trimmed\",\"timestamp\":\"\(Self.timestamp(Int64(Date().timeIntervalSince1970 * 1000)))\"}"
        try JSONLines.write([Data(note.utf8)] + kept, to: path)
    }

    /// Events written before the service assigned an id carry a placeholder; this
    /// rewrites them with the real id (spec: fire with a placeholder, backfill later).
    public func backfill(placeholder: String, userID: String) throws {
        let (placeholder, named) = (Data("\"user_id\":\"\(placeholder)\"".utf8), Data("\"user_id\":\"\(userID)\"".utf8))
        let lines = JSONLines.read(path)
        guard lines.contains(where: { $0.firstRange(of: placeholder) != nil }) else { return }
        try JSONLines.write(lines.map { $0.replacing(placeholder, with: named) }, to: path)
    }

    /// Deletes the log: consent was withdrawn.
    public func forget() throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }

    /// Every event in the log, oldest first; unreadable lines are skipped (one damaged
    /// line hides only itself).
    public func events() -> [[String: Any]] {
        JSONLines.read(path).compactMap(JSONObject.read)
    }

    static func timestamp(_ milliseconds: Int64) -> String {
        Instant.internetTime(milliseconds: milliseconds)
    }
}
