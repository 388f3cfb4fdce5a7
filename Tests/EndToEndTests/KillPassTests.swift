import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Issue 30: `reliability/kill.py` drifted from the example scripts it types, unseen,
    /// until a full run failed 57 of 100. A short fixed-seed pass (two trials a flow, every
    /// signal, the real binary on a pty) runs with the suite, so a change to a script, a
    /// flow or the harness that breaks it fails here. `reliability/run` runs the full counts.
    @Suite struct KillPassTests {
        @Test func aShortFixedSeedKillPassOnTheEmbeddedMock() {
            let bin = URL(fileURLWithPath: Tmux.binary).deletingLastPathComponent().path
            let run = Subprocess.run(
                "/usr/bin/env",
                [
                    "ONBOARD_BIN=\(bin)", "python3", Tmux.packageRoot + "/reliability/kill.py", "--trials", "10", "--seed", "20261125",
                ])
            #expect(run.status == 0, "\(run.output.suffix(6000))")
            #expect(run.output.contains("10 trials"), "\(run.output.suffix(2000))")
        }
    }
}
