/// Where people stop in a flow: its screens in the flow's order, each with the people who
/// reached it, went on and stopped there, the time they spent on it, its errors and
/// retries; then completion and time to complete against the spec's target. One person
/// is one run of the flow on one device (the events' `anonymous_id`). The JSON of
/// `GET /api/v1/admin/funnel` and `onboard-server funnel --json`.
public struct FunnelReport: Codable, Sendable, Equatable {
    public var flow: String
    /// The window, by the devices' clocks (RFC 3339).
    public var since: String
    public var until: String
    /// People with at least one screen reached.
    public var started: Int
    public var completed: Int
    /// completed / started, 0 when nobody started.
    public var completionRate: Double
    public var timeToComplete: Timing?
    /// OKLah's target: onboarding done in under 2 minutes.
    public var targetMilliseconds: Int64
    /// Completed within the target.
    public var withinTarget: Int
    public var steps: [Step]
    /// The same report for each value of the flow's version (MIGA's remote
    /// `onboarding_flow_version`); "(none)" for people whose events carry none.
    public var byVersion: [String: FunnelReport]?

    public struct Step: Codable, Sendable, Equatable {
        public var screen: String
        public var reached: Int
        /// Reached and went on to another screen or finished.
        public var wentOn: Int
        /// Reached, and it is the last screen they saw without finishing.
        public var dropped: Int
        /// reached / started.
        public var reachedRate: Double
        /// dropped / reached.
        public var dropRate: Double
        /// Each person's whole time on the screen, until the next screen or the finish.
        public var timeOnScreen: Timing?
        /// Failures shown on the screen, by the flow's error code.
        public var errors: [String: Int]
        public var retries: Int

        enum CodingKeys: String, CodingKey {
            case screen, reached, dropped, errors, retries
            case wentOn = "went_on", reachedRate = "reached_rate", dropRate = "drop_rate", timeOnScreen = "time_on_screen"
        }

        public init(screen: String) {
            self.screen = screen
            (reached, wentOn, dropped, reachedRate, dropRate, timeOnScreen, errors, retries) = (0, 0, 0, 0, 0, nil, [:], 0)
        }
    }

    /// Nearest-rank percentiles, in milliseconds.
    public struct Timing: Codable, Sendable, Equatable {
        public var medianMilliseconds: Int64
        public var p90Milliseconds: Int64
        public var count: Int

        enum CodingKeys: String, CodingKey {
            case count
            case medianMilliseconds = "median_ms", p90Milliseconds = "p90_ms"
        }

        public init?(_ values: [Int64]) {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            func rank(_ fraction: Double) -> Int64 { sorted[max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)] }
            (medianMilliseconds, p90Milliseconds, count) = (rank(0.5), rank(0.9), sorted.count)
        }
    }

    enum CodingKeys: String, CodingKey {
        case flow, since, until, started, completed, steps
        case completionRate = "completion_rate", timeToComplete = "time_to_complete", targetMilliseconds = "target_ms"
        case withinTarget = "within_target", byVersion = "by_version"
    }

    public init(flow: String, since: String, until: String, targetMilliseconds: Int64) {
        (self.flow, self.since, self.until, self.targetMilliseconds) = (flow, since, until, targetMilliseconds)
        (started, completed, completionRate, timeToComplete, withinTarget, steps, byVersion) = (0, 0, 0, nil, 0, [], nil)
    }
}
