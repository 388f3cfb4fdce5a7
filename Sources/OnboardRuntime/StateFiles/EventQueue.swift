import FoundationEssentials
import ServiceAPI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Events waiting to be delivered, as JSON Lines beside the analytics log
/// (`events.queue.jsonl`), so a kill or a relaunch loses none: each line is an event as it
/// travels (its id made when it was recorded) and the service it is for, since two
/// terminals on one state folder may each run on another service, and Baby Basics' server
/// may change. Every change holds the folder's lock, so two processes append and remove
/// without losing each other's lines. Bounded: past `limitBytes` the oldest go first and
/// an `analytics_events_dropped` event says how many, so the loss itself is reported.
/// Withdrawals of consent wait in `events.forget` until their service has them.
public struct EventQueue: Sendable {
    public let path: String
    public let forgetPath: String
    public let limitBytes: Int
    private var lockPath: String { path + ".lock" }
    public static let droppedEvent = "analytics_events_dropped"

    /// An event and the service (its address: `mock://local`, `https://…`) it is for.
    struct Entry: Codable {
        var to: String
        var event: AnalyticsEvent
    }

    /// A run whose events a service is to forget (consent withdrawn).
    public struct Withdrawal: Codable, Equatable, Sendable {
        public var to: String
        public var anonymousID: String

        public init(to: String, anonymousID: String) { (self.to, self.anonymousID) = (to, anonymousID) }
    }

    public init(folder: String, limitBytes: Int = 512 * 1024) {
        path = folder + "/events.queue.jsonl"
        forgetPath = folder + "/events.forget"
        self.limitBytes = limitBytes
    }

    public func append(_ event: AnalyticsEvent, to service: String) throws {
        let line = try JSONEncoder.queue.encode(Entry(to: service, event: event))
        try FileLock.exclusive(lockPath) {
            try JSONLines.append(line, to: path)
            try trimIfOverLimit()
        }
    }

    /// The services events wait for, oldest first.
    public func services() -> [String] {
        var seen: [String] = []
        for entry in entries() where !seen.contains(entry.to) { seen.append(entry.to) }
        return seen
    }

    /// The oldest `count` events for `service`; a line that cannot be read (a torn write)
    /// is skipped and goes with the next removal.
    public func oldest(_ count: Int, for service: String) -> [AnalyticsEvent] {
        Array(entries().lazy.filter { $0.to == service }.map(\.event).prefix(count))
    }

    public var isEmpty: Bool { entries().isEmpty }

    /// Removes delivered events (and unreadable lines), keeping what others appended since.
    public func remove(ids: Set<String>) throws {
        try FileLock.exclusive(lockPath) {
            let lines = JSONLines.read(path)
            let kept = lines.filter { line in Self.entry(line).map { !ids.contains($0.event.id) } ?? false }
            if kept.count != lines.count { try JSONLines.write(kept, to: path) }
        }
    }

    /// Events queued before the service named the user: the placeholder becomes its id.
    public func backfill(placeholder: String, userID: String) throws {
        try FileLock.exclusive(lockPath) {
            var changed = false
            let lines = try JSONLines.read(path).map { line in
                guard var entry = Self.entry(line), entry.event.userID == placeholder else { return line }
                entry.event.userID = userID
                changed = true
                return try JSONEncoder.queue.encode(entry)
            }
            if changed { try JSONLines.write(lines, to: path) }
        }
    }

    /// Consent withdrawn: the queue goes, and the service is to forget this run's events.
    public func forget(_ withdrawal: Withdrawal) throws {
        try FileLock.exclusive(lockPath) {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            var pending = Self.withdrawals(forgetPath)
            if !pending.contains(withdrawal) { pending.append(withdrawal) }
            try JSONLines.write(try pending.map { try JSONEncoder.queue.encode($0) }, to: forgetPath)
        }
    }

    /// Withdrawals their services have not confirmed yet.
    /// Whether events may wait, by the file alone (no read, no lock).
    public var mayHoldEvents: Bool { (FileStamp(path)?.size ?? 0) > 0 }

    /// Whether a withdrawal waits, by the file alone.
    public var holdsWithdrawals: Bool { access(forgetPath, F_OK) == 0 }

    public func pendingWithdrawals() -> [Withdrawal] {
        (try? FileLock.exclusive(lockPath) { Self.withdrawals(forgetPath) }) ?? []
    }

    public func withdrawalDelivered(_ withdrawal: Withdrawal) throws {
        try FileLock.exclusive(lockPath) {
            let pending = Self.withdrawals(forgetPath).filter { $0 != withdrawal }
            if pending.isEmpty {
                try? FileManager.default.removeItem(atPath: forgetPath)
            } else {
                try JSONLines.write(try pending.map { try JSONEncoder.queue.encode($0) }, to: forgetPath)
            }
        }
    }

    private func entries() -> [Entry] {
        (try? FileLock.exclusive(lockPath) { JSONLines.read(path).compactMap(Self.entry) }) ?? []
    }

    private static func entry(_ line: Data) -> Entry? { try? JSONDecoder().decode(Entry.self, from: line) }

    private static func withdrawals(_ path: String) -> [Withdrawal] {
        JSONLines.read(path).compactMap { try? JSONDecoder().decode(Withdrawal.self, from: $0) }
    }

    /// Drops the oldest events until the queue is under half its limit, and records how
    /// many went (an earlier count carried into the new one), for the newest's service.
    private func trimIfOverLimit() throws {
        guard let (kept, dropped) = JSONLines.newestHalf(path, limitBytes: limitBytes) else { return }
        let count = dropped.compactMap(Self.entry).reduce(0) { total, entry in
            guard entry.event.event == Self.droppedEvent, case .number(let count)? = entry.event.properties["count"] else {
                return total + 1
            }
            return total + Int(count)
        }
        guard let newest = (kept.last ?? dropped.last).flatMap(Self.entry) else { return try JSONLines.write(kept, to: path) }
        var note = newest.event
        (note.id, note.event, note.screen, note.properties) = (
            UUID().uuidString.lowercased(), Self.droppedEvent, nil, ["count": .number(Double(count))]
        )
        try JSONLines.write(kept + [try JSONEncoder.queue.encode(Entry(to: newest.to, event: note))], to: path)
    }
}

extension JSONEncoder {
    /// One line per value, keys in order.
    static var queue: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
