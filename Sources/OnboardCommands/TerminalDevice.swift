import CursesBackend
import OnboardRuntime
import TerminalUI

extension CursesTerminal: TerminalDevice {
    public func readInputs() -> [TerminalInput] {
        pendingInputs()
    }
}
