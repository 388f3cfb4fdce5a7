import Foundation
import Testing

/// Every end-to-end suite, one test at a time. They drive real processes and wait in
/// blocking calls (tmux, waitpid, sleeps), which hold a thread of Swift's cooperative
/// pool — on a 2-core machine, two such tests at once would leave none for the
/// in-process async tests (and their servers), whose calls then time out.
@Suite(.serialized) struct EndToEnd {}

extension EndToEnd {
    /// Polls `condition` until it holds or `seconds` pass; whether it held.
    static func waitUntil(_ condition: () -> Bool, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }
}
