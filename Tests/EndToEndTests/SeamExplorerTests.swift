import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Issue 45: the seam explorer (`reliability/seams.py`, Hypothesis' stateful testing
    /// over the real binary: windows, kills, the mock and servers on SQLite and
    /// PostgreSQL, clocks, sign-outs, log-ins) replays the seams it keeps and runs a short
    /// pass of the same runs every time, so a change that opens a seam it can reach fails
    /// here. `reliability/run` runs it long, with new runs each time.
    @Suite struct SeamExplorerTests {
        @Test func aShortFixedPassFindsNoSeam() {
            let bin = URL(fileURLWithPath: Tmux.binary).deletingLastPathComponent().path
            let run = Subprocess.run(
                "/usr/bin/env",
                [
                    "ONBOARD_BIN=\(bin)", "python3", Tmux.packageRoot + "/reliability/seams.py", "--examples", "12", "--steps", "12",
                    "--fixed",
                ])
            #expect(run.status == 0, "\(run.output.suffix(8000))")
            #expect(run.output.contains("no seam found"), "\(run.output.suffix(2000))")
            #expect(
                run.output.contains("seams: replayed the same on PostgreSQL"),
                "PostgreSQL (.ci/run installs it): \(run.output.suffix(2000))")
        }
    }
}
