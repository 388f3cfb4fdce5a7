import FunnelText
import ServiceAPI
import TerminalUI

/// A funnel as horizontal bars, one per screen: the bar's length is the share of people
/// who reached the screen, its light end the part who stopped there; then the numbers.
struct FunnelBars {
    var glyphs: Glyphs
    var width: Int

    func draw(_ report: FunnelReport) -> String {
        var text = section(report, heading: "\(report.flow) since \(report.since)")
        for (version, part) in (report.byVersion ?? [:]).sorted(by: { $0.key < $1.key }) {
            text += "\n" + section(part, heading: "\(report.flow), onboarding_flow_version \(version)")
        }
        return text
    }

    private func section(_ report: FunnelReport, heading: String) -> String {
        var lines = [heading, FunnelText.summary(report), ""]
        guard !report.steps.isEmpty else { return (lines + ["No one reached a screen in this window."]).joined(separator: "\n") + "\n" }
        let nameWidth = min(20, report.steps.map { $0.screen.count }.max() ?? 0)
        // name, bar, then at most " 12345  100%  stopped 12345 (12.5%)  999 ms"
        let numbersWidth = 44
        let barWidth = max(10, min(40, width - nameWidth - numbersWidth - 2))
        let (full, light) = glyphs.ascii ? ("#", "-") : ("█", "░")
        for step in report.steps {
            let reached = report.started == 0 ? 0 : Int((Double(step.reached) / Double(report.started) * Double(barWidth)).rounded())
            let stopped = step.reached == 0 ? 0 : Int((Double(step.dropped) / Double(step.reached) * Double(reached)).rounded())
            let bar = String(repeating: full, count: reached - stopped) + String(repeating: light, count: stopped)
            let name = step.screen.count > nameWidth ? String(step.screen.prefix(nameWidth - 1)) + "~" : step.screen
            var line =
                name.padded(to: nameWidth) + " " + bar.padded(to: barWidth) + " " + leftPad("\(step.reached)", 5) + " "
                + leftPad(FunnelText.percent(step.reachedRate), 5)
            if step.dropped > 0 { line += "  stopped \(step.dropped) (\(FunnelText.percent(step.dropRate)))" }
            if let time = step.timeOnScreen { line += "  \(FunnelText.clock(time.medianMilliseconds))" }
            lines.append(line)
            var notes: [String] = []
            if !step.errors.isEmpty {
                notes.append("errors: " + step.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            }
            if step.retries > 0 { notes.append("retried \(step.retries)") }
            if !notes.isEmpty { lines.append(String(repeating: " ", count: nameWidth + 1) + notes.joined(separator: "; ")) }
        }
        lines.append("")
        lines.append("\(full) reached and went on   \(light) stopped here   time: median on the screen")
        return lines.joined(separator: "\n") + "\n"
    }

    private func leftPad(_ text: String, _ count: Int) -> String { String(repeating: " ", count: max(0, count - text.count)) + text }
}
