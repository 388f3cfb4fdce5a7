import FoundationEssentials
import CivilCalendar
import ServiceAPI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A funnel report as an operator reads it: a table, JSON or CSV.
public enum FunnelText {
    /// The start of a window: `7d`, `24h` or `90m` before `now`, or an RFC 3339 instant;
    /// nil for anything else.
    public static func since(_ text: String, now: Int64) -> Int64? {
        Instant.milliseconds(internetTime: text) ?? milliseconds(text).map { now - $0 }
    }

    /// `7d`, `24h`, `90m` (`DurationText`) in milliseconds, at most 100 years; nil for
    /// anything else, a negative span among them.
    public static func milliseconds(_ text: String) -> Int64? {
        guard let seconds = DurationText.seconds(text), (0...36_500 * 86_400).contains(seconds) else { return nil }
        return seconds * 1000
    }

    public static func json(_ report: FunnelReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// One line per step; errors as `code=count` joined by `;`.
    public static func csv(_ report: FunnelReport) -> String {
        var lines = ["screen,reached,went_on,dropped,reached_rate,drop_rate,median_ms,p90_ms,errors,retries"]
        for step in report.steps {
            let errors = step.errors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
            lines.append(
                [
                    step.screen, "\(step.reached)", "\(step.wentOn)", "\(step.dropped)", "\(step.reachedRate)", "\(step.dropRate)",
                    step.timeOnScreen.map { "\($0.medianMilliseconds)" } ?? "", step.timeOnScreen.map { "\($0.p90Milliseconds)" } ?? "",
                    errors,
                    "\(step.retries)",
                ].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func table(_ report: FunnelReport) -> String {
        var text = section(report, heading: "\(report.flow) since \(report.since)")
        for (version, part) in (report.byVersion ?? [:]).sorted(by: { $0.key < $1.key }) {
            text += "\n" + section(part, heading: "\(report.flow), onboarding_flow_version \(version)")
        }
        return text
    }

    private static func section(_ report: FunnelReport, heading: String) -> String {
        var lines = [heading, summary(report), ""]
        lines.append(row("screen", "reached", "went on", "dropped", "time median", "p90", "errors", "retries"))
        for step in report.steps {
            let errors = step.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append(
                row(
                    step.screen, "\(step.reached) \(percent(step.reachedRate))", "\(step.wentOn)",
                    "\(step.dropped) \(percent(step.dropRate))",
                    step.timeOnScreen.map { clock($0.medianMilliseconds) } ?? "-",
                    step.timeOnScreen.map { clock($0.p90Milliseconds) } ?? "-",
                    errors.isEmpty ? "-" : errors, "\(step.retries)"))
        }
        if report.steps.isEmpty { lines.append("(no one reached a screen in this window)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `200 started, 140 completed (70%)` and, on a line of its own,
    /// `time to complete: median 1:05, p90 1:52; 130 within the 2:00 target`.
    public static func summary(_ report: FunnelReport) -> String {
        var text = "\(report.started) started, \(report.completed) completed (\(percent(report.completionRate)))"
        if let timing = report.timeToComplete {
            text += "\ntime to complete: median \(clock(timing.medianMilliseconds)), p90 \(clock(timing.p90Milliseconds))"
            text += "; \(report.withinTarget) within the \(clock(report.targetMilliseconds)) target"
        }
        return text
    }

    /// `1:05`, `12:00`, `1h05m`, and `40 ms` under a second (a script's walk).
    public static func clock(_ milliseconds: Int64) -> String {
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let seconds = milliseconds / 1000
        let minutes = seconds / 60
        return minutes >= 60 ? "\(minutes / 60)h\(pad(minutes % 60))m" : "\(minutes):\(pad(seconds % 60))"
    }

    /// `70%`, `12.5%`.
    public static func percent(_ rate: Double) -> String {
        let tenths = (rate * 1000).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))%" : "\(tenths / 10)%"
    }

    private static func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func row(_ columns: String...) -> String {
        let widths = [18, 13, 8, 12, 12, 7, 0, 0]
        let line = zip(columns, widths).map { column, width in
            column + String(repeating: " ", count: max(width - column.count, 1))
        }
        .joined()
        return String(line.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
