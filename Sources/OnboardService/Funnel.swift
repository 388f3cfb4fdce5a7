import CivilCalendar
import ServiceAPI

/// One stored event as the funnel reads it.
public struct FunnelRow: Sendable, Equatable {
    public var anonymousID: String
    public var screen: String?
    /// Set on an arrival (`screen_viewed`): the screen's place in the flow file.
    public var screenIndex: Int?
    public var occurredAt: Int64
    public var errorCode: String?
    /// A retry after an error (it carries `attempt_number`).
    public var isRetry: Bool
    /// The completion event's `duration_ms`: the flow's own measure of time to complete.
    public var durationMilliseconds: Int64?
    public var version: String?

    public init(
        anonymousID: String, screen: String?, screenIndex: Int?, occurredAt: Int64, errorCode: String? = nil, isRetry: Bool = false,
        durationMilliseconds: Int64? = nil, version: String? = nil
    ) {
        (self.anonymousID, self.screen, self.screenIndex, self.occurredAt) = (anonymousID, screen, screenIndex, occurredAt)
        (self.errorCode, self.isRetry, self.durationMilliseconds, self.version) = (errorCode, isRetry, durationMilliseconds, version)
    }
}

/// The funnel, worked out from a flow's events person by person (PostHog's and Firebase's
/// reading: who reached each step, who stopped there, how long it took). Screens come in
/// the flow file's order (the index each arrival carries), so a report needs no copy of
/// the flow on the server; a screen nobody reached is not listed.
public enum Funnel {
    /// OKLah's target for time to complete.
    public static let targetMilliseconds: Int64 = 120_000

    /// The start of a window: `7d`, `24h` or `90m` before `now`, or an RFC 3339 instant;
    /// nil for anything else.
    public static func since(_ text: String, now: Int64) -> Int64? {
        Instant.milliseconds(internetTime: text) ?? milliseconds(text).map { now - $0 }
    }

    /// `7d`, `24h`, `90m` in milliseconds (at most 100 years); nil for anything else.
    public static func milliseconds(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["d": 86_400_000, "h": 3_600_000, "m": 60_000]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()), (0...36_500).contains(count) else { return nil }
        return count * unit
    }

    /// `rows` in any order; split by version when `byVersion`.
    public static func report(flow: String, since: Int64, until: Int64, rows: [FunnelRow], byVersion: Bool) -> FunnelReport {
        let people = Dictionary(grouping: rows, by: \.anonymousID).values.map { person in
            person.sorted { ($0.occurredAt, $0.screenIndex ?? -1) < ($1.occurredAt, $1.screenIndex ?? -1) }
        }
        var report = build(flow: flow, since: since, until: until, people: people)
        if byVersion {
            let split = Dictionary(grouping: people) { person in person.lazy.compactMap(\.version).first ?? "(none)" }
            report.byVersion = split.mapValues { build(flow: flow, since: since, until: until, people: $0) }
        }
        return report
    }

    private static func build(flow: String, since: Int64, until: Int64, people: [[FunnelRow]]) -> FunnelReport {
        var report = FunnelReport(
            flow: flow, since: Instant.internetTime(milliseconds: since), until: Instant.internetTime(milliseconds: until),
            targetMilliseconds: targetMilliseconds)
        var steps: [String: FunnelReport.Step] = [:]
        var places: [String: [Int]] = [:]
        var dwell: [String: [Int64]] = [:]
        var completions: [Int64] = []
        for person in people {
            let arrivals = person.compactMap { row in row.screen.flatMap { screen in row.screenIndex.map { (screen, $0, row.occurredAt) } } }
            guard let last = arrivals.last else { continue }
            report.started += 1
            let finish = person.first { $0.durationMilliseconds != nil }
            if let finish {
                report.completed += 1
                completions.append(finish.durationMilliseconds ?? 0)
            }
            var time: [String: Int64] = [:]
            for (position, (screen, index, at)) in arrivals.enumerated() {
                places[screen, default: []].append(index)
                let leaving = position + 1 < arrivals.count ? arrivals[position + 1].2 : finish?.occurredAt
                if let leaving { time[screen, default: 0] += max(0, leaving - at) }
            }
            for screen in Set(arrivals.map(\.0)) {
                var entry = steps[screen] ?? FunnelReport.Step(screen: screen)
                entry.reached += 1
                if finish == nil, screen == last.0 { entry.dropped += 1 } else { entry.wentOn += 1 }
                steps[screen] = entry
            }
            for (screen, milliseconds) in time { dwell[screen, default: []].append(milliseconds) }
            for row in person {
                guard let screen = row.screen, row.errorCode != nil || row.isRetry else { continue }
                var entry = steps[screen] ?? FunnelReport.Step(screen: screen)
                if let code = row.errorCode { entry.errors[code, default: 0] += 1 }
                if row.isRetry { entry.retries += 1 }
                steps[screen] = entry
            }
        }
        report.completionRate = rate(report.completed, report.started)
        report.timeToComplete = FunnelReport.Timing(completions)
        report.withinTarget = completions.filter { $0 < targetMilliseconds }.count
        report.steps = steps.values.filter { $0.reached > 0 }.map { entry in
            var entry = entry
            entry.reachedRate = rate(entry.reached, report.started)
            entry.dropRate = rate(entry.dropped, entry.reached)
            entry.timeOnScreen = FunnelReport.Timing(dwell[entry.screen] ?? [])
            return entry
        }.sorted { (usualPlace(places[$0.screen]), $0.screen) < (usualPlace(places[$1.screen]), $1.screen) }
        return report
    }

    private static func rate(_ part: Int, _ whole: Int) -> Double {
        whole == 0 ? 0 : (Double(part) / Double(whole) * 10_000).rounded() / 10_000
    }

    /// A screen's usual place (the median index): the flow file may differ between versions.
    private static func usualPlace(_ indexes: [Int]?) -> Int {
        guard let indexes, !indexes.isEmpty else { return Int.max }
        return indexes.sorted()[indexes.count / 2]
    }
}
