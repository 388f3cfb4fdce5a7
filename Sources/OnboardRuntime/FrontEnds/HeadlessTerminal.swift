import FoundationEssentials
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A terminal with no screen: the same engine and renderer draw into it, keys come from
/// a key script, and every distinct frame is handed on (printed, written to a folder,
/// compared in tests). QA automate with it; no tty needed.
public final class HeadlessTerminal: TerminalDevice {
    public let size: (width: Int, height: Int)
    /// Always readable, so the run loop never sleeps while the script has work.
    public let inputDescriptor: Int32
    public private(set) var frames: [Frame] = []
    /// Why the script stopped early (a `wait:` that timed out), if it did.
    public private(set) var failure: String?
    /// Resolves `<sms-code>`.
    public var smsCode: () -> String? = { nil }
    private var steps: [KeyScript.Step]
    private let waitTimeout: Duration
    private var waitingSince: ContinuousClock.Instant?
    private var heldSince: ContinuousClock.Instant?
    private let onFrame: (Frame) -> Void
    private var quitSent = false

    public init(
        width: Int, height: Int, script: KeyScript, waitTimeout: Duration = .seconds(10), onFrame: @escaping (Frame) -> Void = { _ in }
    ) {
        size = (width, height)
        steps = script.steps
        self.waitTimeout = waitTimeout
        self.onFrame = onFrame
        inputDescriptor = open("/dev/zero", O_RDONLY)
    }

    deinit {
        close(inputDescriptor)
    }

    public var lastFrame: Frame? { frames.last }

    public func draw(_ frame: Frame) {
        guard frame != frames.last else { return }
        frames.append(frame)
        onFrame(frame)
    }

    public func readInputs() -> [TerminalInput] {
        guard let step = steps.first else {
            // The script is done: quit, as a person would.
            if quitSent { return [] }
            quitSent = true
            return [.key(.control("c"))]
        }
        if frames.last?.busy == true {
            // Keys wait while the screen says to (a call the user would wait for).
            // A call that never ends fails the script too, rather than hanging it.
            return keepWaiting(since: &heldSince, else: "a call was still under way after \(waitTimeout)")
        }
        heldSince = nil
        switch step {
        case .keys(let keys):
            steps.removeFirst()
            return keys.map(TerminalInput.key)
        case .smsCode:
            steps.removeFirst()
            guard let code = smsCode() else {
                stop("<sms-code>: the outbox has no SMS code")
                return [.key(.control("c"))]
            }
            return code.map { .key(.character($0)) }
        case .wait(let text):
            if let frame = frames.last, frame.text.contains(text) {
                steps.removeFirst()
                waitingSince = nil
                return []
            }
            return keepWaiting(since: &waitingSince, else: "wait: '\(text)' never appeared within \(waitTimeout)")
        }
    }

    /// A short nap while waiting; past the timeout, the script stops with `reason`.
    private func keepWaiting(since start: inout ContinuousClock.Instant?, else reason: String) -> [TerminalInput] {
        let started = start ?? ContinuousClock.now
        start = started
        if ContinuousClock.now - started > waitTimeout {
            stop(reason)
            return [.key(.control("c"))]
        }
        usleep(5000)
        return []
    }

    private func stop(_ reason: String) {
        failure = reason
        steps = []
        quitSent = true
    }

    public var typesFromAScript: Bool { true }
    public func suspend() {}
    public func invalidate() {}
}

extension HeadlessTerminal {
    /// A frame as lines of text, trailing spaces dropped (as `tmux capture-pane` shows).
    public static func plainText(_ frame: Frame) -> String {
        frame.text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = Substring(line)
            while line.last == " " { line = line.dropLast() }
            return String(line)
        }.joined(separator: "\n")
    }
}
