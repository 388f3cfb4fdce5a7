import CivilCalendar
import ServiceAPI

/// One stored event as the funnel reads it.
public struct FunnelRow: Sendable, Equatable {
    /// The person (the run's `anonymous_id`) as a 64-bit hash: grouping a million rows by
    /// a number, not a string (two of a million people share one with odds of 1 in 37 million).
    public var person: Int64
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
    /// An arrival that starts a run of the client (a launch): what was shown before it
    /// was left when that run ended, not now.
    public var startsRun: Bool

    public init(
        person: Int64, screen: String?, screenIndex: Int?, occurredAt: Int64, errorCode: String? = nil, isRetry: Bool = false,
        durationMilliseconds: Int64? = nil, version: String? = nil, startsRun: Bool = false
    ) {
        self.startsRun = startsRun
        (self.person, self.screen, self.screenIndex, self.occurredAt) = (person, screen, screenIndex, occurredAt)
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

    /// `rows` in any order; split by version when `byVersion`.
    public static func report(flow: String, since: Int64, until: Int64, rows: [FunnelRow], byVersion: Bool) -> FunnelReport {
        let people = People(rows)
        let (from, to) = (Instant.internetTime(milliseconds: since), Instant.internetTime(milliseconds: until))
        var report = build(flow: flow, since: from, until: to, rows: rows, people: people, only: nil)
        if byVersion {
            var versions: [String: [Int]] = [:]
            for person in 0..<people.count {
                versions[people.rows(of: person).lazy.compactMap { rows[$0].version }.first ?? "(none)", default: []].append(person)
            }
            report.byVersion = versions.mapValues { build(flow: flow, since: from, until: to, rows: rows, people: people, only: $0) }
        }
        return report
    }

    /// The rows grouped by person (one hash per row, then a counting sort), each person's
    /// in time order: a million rows without a dictionary of arrays.
    struct People {
        var order: [Int32] = []
        var starts: [Int] = [0]
        var count: Int { starts.count - 1 }

        init(_ rows: [FunnelRow]) {
            var ids: [Int64: Int32] = [:]
            var personOf: [Int32] = []
            personOf.reserveCapacity(rows.count)
            for row in rows {
                if let known = ids[row.person] {
                    personOf.append(known)
                } else {
                    let next = Int32(ids.count)
                    ids[row.person] = next
                    personOf.append(next)
                }
            }
            var sizes = [Int](repeating: 0, count: ids.count + 1)
            for person in personOf { sizes[Int(person) + 1] += 1 }
            for index in 1..<sizes.count { sizes[index] += sizes[index - 1] }
            starts = sizes
            var fill = sizes
            order = [Int32](repeating: 0, count: rows.count)
            for (index, person) in personOf.enumerated() {
                order[fill[Int(person)]] = Int32(index)
                fill[Int(person)] += 1
            }
            for person in 0..<ids.count {
                order[starts[person]..<starts[person + 1]].sort { a, b in
                    let (x, y) = (rows[Int(a)], rows[Int(b)])
                    return (x.occurredAt, x.screenIndex ?? -1) < (y.occurredAt, y.screenIndex ?? -1)
                }
            }
        }

        /// Row numbers of one person, oldest first.
        func rows(of person: Int) -> LazyMapSequence<ArraySlice<Int32>, Int> {
            order[starts[person]..<starts[person + 1]].lazy.map(Int.init)
        }
    }

    /// One report over everyone, or over `only` these people (a version).
    private static func build(flow: String, since: String, until: String, rows: [FunnelRow], people: People, only: [Int]?) -> FunnelReport {
        var report = FunnelReport(flow: flow, since: since, until: until, targetMilliseconds: targetMilliseconds)
        // Per screen, by a small number: counts, each person's time on it, where it is in the file.
        var screens: [String: Int] = [:]
        var names: [String] = []
        var reached: [Int] = [], dropped: [Int] = [], retries: [Int] = []
        var errors: [[String: Int]] = [], dwell: [[Int64]] = [], places: [[Int: Int]] = []
        func screenNumber(_ name: String) -> Int {
            if let number = screens[name] { return number }
            screens[name] = names.count
            names.append(name)
            reached.append(0); dropped.append(0); retries.append(0)
            errors.append([:]); dwell.append([]); places.append([:])
            return names.count - 1
        }
        var seenBy: [Int] = []  // the last person who reached each screen
        var time: [Int64] = []  // this person's time on each screen, -1 for none
        var completions: [Int64] = []
        var arrivals: [(screen: Int, at: Int64, startsRun: Bool)] = []
        for (position, person) in (only ?? Array(0..<people.count)).enumerated() {
            arrivals.removeAll(keepingCapacity: true)
            var finish: FunnelRow?
            for index in people.rows(of: person) {
                let row = rows[index]
                if finish == nil, row.durationMilliseconds != nil { finish = row }
                guard let name = row.screen, let place = row.screenIndex else { continue }
                let screen = screenNumber(name)
                places[screen][place, default: 0] += 1
                arrivals.append((screen, row.occurredAt, row.startsRun))
            }
            guard let last = arrivals.last else { continue }
            report.started += 1
            if let finish {
                report.completed += 1
                completions.append(finish.durationMilliseconds ?? 0)
            }
            if seenBy.count < names.count {
                seenBy += Array(repeating: -1, count: names.count - seenBy.count)
                time += Array(repeating: -1, count: names.count - time.count)
            }
            var touched: [Int] = []
            for (number, arrival) in arrivals.enumerated() {
                if seenBy[arrival.screen] != position {
                    seenBy[arrival.screen] = position
                    reached[arrival.screen] += 1
                    touched.append(arrival.screen)
                }
                // The next arrival ends this one, unless it starts another run: the screen
                // was left when the run before it ended, at a time no event says.
                let next = number + 1 < arrivals.count ? arrivals[number + 1] : nil
                let leaving = next.map { $0.startsRun ? nil : $0.at } ?? finish?.occurredAt
                if let leaving { time[arrival.screen] = max(0, time[arrival.screen]) + max(0, leaving - arrival.at) }
            }
            if finish == nil { dropped[last.screen] += 1 }
            for screen in touched where time[screen] >= 0 {
                dwell[screen].append(time[screen])
                time[screen] = -1
            }
            for index in people.rows(of: person) {
                let row = rows[index]
                guard let name = row.screen, row.errorCode != nil || row.isRetry else { continue }
                let screen = screenNumber(name)
                if let code = row.errorCode { errors[screen][code, default: 0] += 1 }
                if row.isRetry { retries[screen] += 1 }
            }
        }
        report.completionRate = rate(report.completed, report.started)
        report.timeToComplete = FunnelReport.Timing(completions)
        report.withinTarget = completions.filter { $0 < targetMilliseconds }.count
        let order = names.indices.filter { reached[$0] > 0 }.sorted {
            (usualPlace(places[$0]), names[$0]) < (usualPlace(places[$1]), names[$1])
        }
        report.steps = order.map { screen in
            var step = FunnelReport.Step(screen: names[screen])
            (step.reached, step.dropped, step.wentOn) = (reached[screen], dropped[screen], reached[screen] - dropped[screen])
            (step.errors, step.retries) = (errors[screen], retries[screen])
            step.reachedRate = rate(step.reached, report.started)
            step.dropRate = rate(step.dropped, step.reached)
            step.timeOnScreen = FunnelReport.Timing(dwell[screen])
            return step
        }
        return report
    }

    private static func rate(_ part: Int, _ whole: Int) -> Double {
        whole == 0 ? 0 : (Double(part) / Double(whole) * 10_000).rounded() / 10_000
    }

    /// A screen's usual place (the median index): the flow file may differ between versions.
    private static func usualPlace(_ counts: [Int: Int]) -> Int {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return Int.max }
        var seen = 0
        for (place, count) in counts.sorted(by: { $0.key < $1.key }) {
            seen += count
            if seen > total / 2 { return place }
        }
        return Int.max
    }
}
