import FlowAuthoring
import FlowEngine
import FoundationEssentials
import ScreenTable
import ServiceAPI
import ServiceClient
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs one flow on one terminal: the UI thread's loop. Keys become events for the
/// flow's session, and every change is drawn.
public final class FlowRunner {
    public typealias Ending = FlowEnding

    let session: FlowSession
    private let renderer: Renderer
    let terminal: TerminalDevice
    /// Whether the last drawn screen shows a spinner (it then needs frequent redraws).
    private var spinnerShown = false
    private let recorder: CastRecorder?
    let qa: QAControls
    /// The QA console, while it is open over the flow.
    var console: QAConsole?
    /// How far a console page's text is scrolled, as `bodyScroll` for a screen.
    var consoleScroll = TextScroll()
    /// A body too long for the terminal: how far it is scrolled, on which screen, and how
    /// far it can go (from the last frame drawn).
    private var bodyScroll = TextScroll()
    /// `--watch`: the files to read again when they change.
    private let liveReload: LiveReload?
    /// Why the files on disk are not in use (they no longer load), over the last good ones.
    private var reloadProblems: [String: [String]] = [:]
    /// A screen the new flow no longer has, said on the screen shown instead until the
    /// person moves on.
    private var reloadNote: (screen: String?, text: String)?

    public init(
        session: FlowSession, renderer: Renderer, terminal: TerminalDevice, recorder: CastRecorder? = nil, qa: QAControls = QAControls(),
        liveReload: LiveReload? = nil
    ) {
        self.liveReload = liveReload
        self.session = session
        self.recorder = recorder
        self.qa = qa
        self.renderer = renderer
        self.terminal = terminal
        session.holdsKeysWhenTheScreenChangesUnasked = true
    }

    public var currentState: FlowState { session.state }
    var state: FlowState { session.state }
    var engine: FlowEngine { session.engine }
    var clock: RuntimeClock { session.clock }

    public func run() -> Ending {
        // The first screen before the launch's writes and calls: a first paint waits for
        // no fsync and no keyring round trip that can come right after it.
        session.launch(deferringEffects: true)
        draw()
        let launched = session.state
        session.performDeferredEffects()
        // A write that failed says so on the screen at once.
        if session.state != launched { draw() }
        while session.ending == nil {
            // The spinner animates at 10 frames a second; watched files are looked at four
            // times a second; otherwise wake once a second.
            // A key script types at the screen it has seen: while keys typed at the screen
            // before would be let go, it is not asked for more (a person would be reading).
            let asksForKeys = !(terminal.typesFromAScript && session.typedAtTheScreenBefore)
            let woke = session.wait(
                input: asksForKeys ? terminal.inputDescriptor : nil,
                milliseconds: !asksForKeys || spinnerShown ? 100 : liveReload != nil ? 250 : 1000)
            // The terminal went away without a SIGHUP reaching us (a parent that caught
            // it): end as a hangup would, rather than spin on a descriptor always ready.
            if woke.inputHungUp { session.end(bySignal: SIGHUP) }
            if woke.continued { terminal.invalidate() }
            if asksForKeys { handle(terminal.readInputs()) }
            reloadChangedFiles()
            // Time passing: due renewals, and renewal ahead of expiry.
            dispatch(.tick)
            if session.ending == nil { draw() }
        }
        return session.ending ?? .quit
    }

    private func handle(_ inputs: [TerminalInput]) {
        var typed = ""
        func flushTyped() {
            guard !typed.isEmpty else { return }
            dispatch(.intent(.insert(typed)))
            typed = ""
        }
        for input in inputs {
            // Reading a body the form had no room for: any key but PgUp/PgDn goes back to
            // the form, and only that (Esc does not leave it, Space picks nothing, a letter
            // is not typed unseen); Ctrl-C and Ctrl-Z still quit and suspend.
            if bodyScroll.reading, console == nil, input != .key(.pageUp), input != .key(.pageDown), input != .resize {
                bodyScroll.lines = 0
                bodyScroll.reading = false
                if input != .key(.control("c")), input != .key(.control("z")) {
                    flushTyped()
                    continue
                }
            }
            if case .paste(let text) = input, console == nil {
                flushTyped()
                dispatch(.intent(.paste(text)))
                continue
            }
            guard case .key(let key) = input else { continue }  // a resize just redraws
            if case .character(let character) = key {
                typed.append(character)  // a paste arrives as one insert, not thousands
                continue
            }
            flushTyped()
            if key == .control("l") {
                // Ctrl-L repaints the whole screen, as in readline, vi and less (a screen
                // disturbed from outside; a web session's viewer that attached late).
                terminal.invalidate()
                continue
            }
            // Ctrl-C quits even from the console.
            if (console != nil && key != .control("c")) || QAConsole.opens(key) {
                handleConsole(key)
                continue
            }
            if key == .control("z") {
                if terminal.canSuspend { terminal.suspend() }
                continue
            }
            if scrollBody(key) { continue }
            if let intent = KeyMap.intent(for: key) { dispatch(.intent(intent)) }
        }
        flushTyped()
    }

    public func dispatch(_ event: FlowEvent) {
        session.dispatch(event)
    }

    /// `--watch`: a changed flow runs on from where the person is; a changed theme
    /// restyles the screen; a file that no longer loads is said over the last good one.
    private func reloadChangedFiles() {
        for change in liveReload?.poll() ?? [] {
            reloadProblems[change.file] = nil
            if let flow = change.flow {
                if let left = session.adopt(flow) {
                    reloadNote = (
                        state.screenID,
                        "Screen '\(left)' is no longer in the flow file, so this is '\(state.screenID ?? "")', the nearest one before it."
                    )
                }
            } else if let theme = change.theme {
                terminal.apply(theme)
            } else {
                // The first problem only, with how many more and where to read them: a list
                // of them pushed the screen's own body out of view (issue 32).
                let what = change.file == liveReload?.flowPath ? "flow" : "theme"
                let lint = what == "flow" ? ": onboard lint \(change.file)" : ""
                let more = change.problems.count > 1 ? " (and \(change.problems.count - 1) more\(lint))" : ""
                reloadProblems[change.file] =
                    ["The \(what) file no longer loads; still showing the last version that did." + more] + change.problems.prefix(1)
            }
            terminal.invalidate()
        }
    }

    /// PgUp/PgDn scroll a body longer than the screen, unless the focused widget takes
    /// them (a date's month, a slider's step).
    private func scrollBody(_ key: Key) -> Bool {
        guard key == .pageUp || key == .pageDown, bodyScroll.owner == state.screenID else { return false }
        if session.view().fields.first(where: \.focused)?.takesPageKeys == true { return false }
        return bodyScroll.press(key)
    }

    private func draw() {
        if let console {
            let size = terminal.size
            consoleScroll.follow(console.page?.rawValue)
            // Ctrl-Z is offered only where there is a shell to return to (not over serve-ssh or serve-web).
            var view = console.view(qaInfo())
            view.canSuspend = terminal.canSuspend
            let frame = renderer.render(view, width: size.width, height: size.height, scroll: consoleScroll.lines)
            consoleScroll.fit(frame)
            terminal.draw(frame)
            if let recorder {
                var masked = console.view(qaInfo(masking: true))
                masked.canSuspend = terminal.canSuspend
                recorder.record(renderer.render(masked, width: size.width, height: size.height, scroll: consoleScroll.lines))
            }
            return
        }
        var view = session.view()
        view.canSuspend = terminal.canSuspend
        if let note = reloadNote {
            if note.screen == state.screenID { view.warnings.append(note.text) } else { reloadNote = nil }
        }
        view.warnings += reloadProblems.keys.sorted().flatMap { reloadProblems[$0]! }
        spinnerShown = view.busy
        let size = terminal.size
        let tick = Int(clock.nowMilliseconds() / 100)
        bodyScroll.follow(state.screenID)
        let frame = renderer.render(view, width: size.width, height: size.height, tick: tick, scroll: bodyScroll.lines)
        bodyScroll.fit(frame)
        terminal.draw(frame)
        if let recorder {
            // The recording gets its own view: nothing secret, even if shown on screen.
            var masked = session.view(masking: true)
            masked.canSuspend = terminal.canSuspend
            recorder.record(renderer.render(masked, width: size.width, height: size.height, tick: tick, scroll: bodyScroll.lines))
        }
    }
}
