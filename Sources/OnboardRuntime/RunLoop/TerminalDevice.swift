import TerminalUI

/// A screen Onboard can draw on and read keys from. The ncurses terminal is one; a
/// headless one can be another.
public protocol TerminalDevice: AnyObject {
    var size: (width: Int, height: Int) { get }
    /// Polled for keys alongside the mailbox.
    var inputDescriptor: Int32 { get }
    func draw(_ frame: Frame)
    func readInputs() -> [TerminalInput]
    /// Stops the process as Ctrl-Z does; returns once continued.
    func suspend()
    /// Whether there is a shell to suspend to.
    var canSuspend: Bool { get }
    /// Repaints everything on the next draw.
    func invalidate()
    /// Styles the screen with another theme (a theme file changed under `--watch`).
    func apply(_ theme: Theme)
    /// Its keys come from a script that reads each frame before it types (QA's headless
    /// runs), not from a person at a keyboard.
    var typesFromAScript: Bool { get }
}

extension TerminalDevice {
    public var typesFromAScript: Bool { false }
    public var canSuspend: Bool { true }
    public func apply(_ theme: Theme) {}
}
