import CursesBackend
import OnboardRuntime
import TerminalUI

extension CursesTerminal: TerminalDevice {
    public func readInputs() -> [TerminalInput] {
        pendingInputs().map { input in
            switch input {
            case .key(let key): .key(key)
            case .paste(let text): .paste(text)
            case .resize: .resize
            }
        }
    }
}
