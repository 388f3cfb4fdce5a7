import CivilCalendar
import Foundation
import Logging

/// `--log-format json`: one JSON object per line on standard error (time, level, label,
/// message, then the metadata's keys), for a log collector to read line by line. What
/// the server logs is the same in both formats: no secret and no personal value reaches
/// either (the access line names routes, not paths; the security lines name accounts by
/// id).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }).mapValues(Self.plain)
        // One write per line: lines from two threads never interleave.
        FileHandle.standardError.write(Self.line(level: event.level, label: label, message: event.message.description, fields: fields))
    }

    /// One object and its newline: what a log collector reads, from the logger or from
    /// `serve`'s start-up lines on standard output.
    public static func line(level: Logger.Level, label: String, message: String, fields: [String: Any] = [:]) -> Data {
        var object: [String: Any] = [
            "time": Instant.internetTime(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)),
            "level": level.rawValue,
            "label": label,
            "message": message,
        ]
        object.merge(fields) { _, field in field }
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return Data()
        }
        line.append(0x0A)
        return line
    }

    static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        // Numbers stay numbers (a status, a duration), for a collector's queries.
        case .stringConvertible(let convertible as any BinaryInteger): Int64(convertible)
        case .stringConvertible(let convertible as Double): convertible
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }
}
