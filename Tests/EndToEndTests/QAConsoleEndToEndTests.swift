import Foundation
import Testing

extension EndToEnd {
    /// The QA console in the real binary, in tmux, as QA would use it over SSH.
    @Suite struct QAConsoleEndToEndTests {
        @Test func theConsoleSwitchesAFaultOnAndLeavesTheFlowWhereItWas() {
            let tmux = Tmux()
            tmux.start("run oklah")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("C-g")
            tmux.waitFor("QA console")
            tmux.waitFor("oklah · screen privacy")
            tmux.send("Down", "Enter")
            tmux.waitFor("[ ] network")
            tmux.send("Enter")
            tmux.waitFor("[x] network")
            tmux.send("Escape", "Escape")
            let back = tmux.waitFor("Welcome to OKLah")
            #expect(!back.contains("QA console"))
            tmux.send("Enter")  // Start, with the network "down"
            tmux.waitFor("Try Again")
            tmux.send("C-g")
            tmux.waitFor("faults: network")
            tmux.send("Down", "Enter", "Enter", "Escape", "Escape")  // network off again
            tmux.waitFor("Try Again")
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
        }
    }
}
