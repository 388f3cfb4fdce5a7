import Foundation
import ServiceAPI

/// Events waiting to be delivered, as JSON Lines beside the analytics log
/// (`events.queue.jsonl`), so a kill or a relaunch loses none: each line is an event as it
/// travels, its id made when it was recorded. Every change holds the folder's lock, so
/// two processes on one state folder (two terminals) append and remove without losing
/// each other's lines. Bounded: past `limitBytes` the oldest go first and an
/// `analytics_events_dropped` event says how many, so the loss itself is reported.
/// Withdrawals of consent wait in `events.forget` until the service has them.
public struct EventQueue: Sendable {
    public let path: String
    public let forgetPath: String
    public let limitBytes: Int
    private var lockPath: String { path + ".lock" }
    public static let droppedEvent = "analytics_events_dropped"

    public init(folder: String, limitBytes: Int = 512 * 1024) {
        path = folder + "/events.queue.jsonl"
        forgetPath = folder + "/events.forget"
        self.limitBytes = limitBytes
    }

    public func append(_ event: AnalyticsEvent) throws {
        var line = try JSONEncoder.queue.encode(event)
        line.append(0x0A)
        try FileLock.exclusive(lockPath) {
            try AtomicFile.append(line, to: path)
            try trimIfOverLimit()
        }
    }

    /// The oldest `count` events, decoding no more lines than it takes; a line that
    /// cannot be read (a torn write) is skipped and goes with the next removal.
    public func oldest(_ count: Int) -> [AnalyticsEvent] {
        (try? FileLock.exclusive(lockPath) { Array(readLines().lazy.compactMap(\.event).prefix(count)) }) ?? []
    }

    public var isEmpty: Bool { oldest(1).isEmpty }

    /// Lines waiting, counted without reading them as JSON: cheap enough for the UI thread.
    public var count: Int {
        FileManager.default.contents(atPath: path)?.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } ?? 0
    }

    /// Removes delivered events (and unreadable lines), keeping what others appended since.
    public func remove(ids: Set<String>) throws {
        try FileLock.exclusive(lockPath) {
            let lines = readLines()
            let kept = lines.filter { line in line.event.map { !ids.contains($0.id) } ?? false }
            guard kept.count != lines.count else { return }
            try write(kept.map(\.data))
        }
    }

    /// Events queued before the service named the user: the placeholder becomes its id.
    public func backfill(placeholder: String, userID: String) throws {
        try FileLock.exclusive(lockPath) {
            let lines = readLines()
            guard lines.contains(where: { $0.event?.userID == placeholder }) else { return }
            try write(
                try lines.map { line in
                    guard var event = line.event, event.userID == placeholder else { return line.data }
                    event.userID = userID
                    return try JSONEncoder.queue.encode(event)
                })
        }
    }

    /// Consent withdrawn: the queue goes, and the service is to forget this run's events.
    public func forget(anonymousID: String) throws {
        try FileLock.exclusive(lockPath) {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            var pending = Self.lines(forgetPath)
            if !pending.contains(anonymousID) { pending.append(anonymousID) }
            try AtomicFile.write(Data(pending.map { $0 + "\n" }.joined().utf8), to: forgetPath)
        }
    }

    /// Withdrawals the service has not confirmed yet.
    public func pendingWithdrawals() -> [String] {
        (try? FileLock.exclusive(lockPath) { Self.lines(forgetPath) }) ?? []
    }

    public func withdrawalDelivered(_ anonymousID: String) throws {
        try FileLock.exclusive(lockPath) {
            let pending = Self.lines(forgetPath).filter { $0 != anonymousID }
            if pending.isEmpty {
                try? FileManager.default.removeItem(atPath: forgetPath)
            } else {
                try AtomicFile.write(Data(pending.map { $0 + "\n" }.joined().utf8), to: forgetPath)
            }
        }
    }

    /// A line of the queue, read as an event only when asked.
    private struct Line {
        var data: Data
        var event: AnalyticsEvent? { try? JSONDecoder().decode(AnalyticsEvent.self, from: data) }
    }

    private func readLines() -> [Line] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.split(separator: 0x0A).map { Line(data: Data($0)) }
    }

    private func write(_ lines: [Data]) throws {
        var data = Data()
        for line in lines {
            data.append(line)
            data.append(0x0A)
        }
        try AtomicFile.write(data, to: path)
    }

    /// Drops the oldest events until the queue is under half its limit, and records how
    /// many went (an earlier count carried into the new one).
    private func trimIfOverLimit() throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size > limitBytes else { return }
        let lines = readLines()
        var kept: [Line] = []
        var bytes = 0
        for line in lines.reversed() {
            bytes += line.data.count + 1
            guard bytes <= limitBytes / 2 else { break }
            kept.append(line)
        }
        kept.reverse()
        let gone = lines.dropLast(kept.count)
        let dropped = gone.reduce(0) { total, line in
            guard let event = line.event else { return total }
            guard event.event == Self.droppedEvent, case .number(let count)? = event.properties["count"] else { return total + 1 }
            return total + Int(count)
        }
        guard let newest = lines.last?.event else { return try write(kept.map(\.data)) }
        let note = AnalyticsEvent(
            id: UUID().uuidString.lowercased(), event: Self.droppedEvent, flow: newest.flow, screen: nil, userID: newest.userID,
            anonymousID: newest.anonymousID, timestamp: newest.timestamp, appVersion: newest.appVersion, properties: ["count": .number(Double(dropped))])
        try write(kept.map(\.data) + [try JSONEncoder.queue.encode(note)])
    }

    private static func lines(_ path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(whereSeparator: \.isNewline).map(String.init)
    }
}

extension JSONEncoder {
    /// One line per event, keys in order.
    static var queue: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
