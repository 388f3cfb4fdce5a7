import CivilCalendar
import FlowEngine
import FoundationEssentials
import ScreenTable
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a run ended: the user quit, or a signal (SIGTERM, SIGHUP, SIGINT) ended it.
public enum FlowEnding: Equatable, Sendable {
    case quit
    case signal(Int32)
}

/// One flow in progress: its state, and the reducer's effects carried out. Service calls
/// run in detached tasks and come back through the mailbox; sessions, progress and
/// analytics are saved as they change. The front ends (`FlowRunner` on a screen,
/// `LinePrompter` in plain lines) turn what a person does into events for it.
public final class FlowSession {
    public private(set) var engine: FlowEngine
    public let store: StateStore
    public let clock: RuntimeClock
    public let mailbox: Mailbox
    let operations: OperationRunner
    private let defaults: [String: Value]
    public internal(set) var state = FlowState()
    public internal(set) var ending: FlowEnding?
    /// Notes from opening the run's files (a damaged mock database set aside), said on
    /// the first screen.
    var launchNotes: [String]
    /// What the launcher could not open for the data key being gone (the mock's file).
    private var launchLosses: [SealedLoss]
    /// What `launch(deferringEffects: true)` left for after the first screen.
    private var deferredEffects: [Effect] = []
    /// Where recorded events go to the service (under `DO_NOT_TRACK`, only a withdrawal);
    /// nil when nothing is sent (tests, a flow that records no events).
    public let delivery: EventDelivery?
    /// Whom this window last saw its folder hold (a user id, or none): it writes and
    /// calls only as that identity (`FolderIdentity`).
    var heldIdentity: String?
    /// The session file as this window last read it (`followsAnotherWindow` reads it
    /// again only once it changed).
    var sessionFileSeen: FileStamp?
    /// The progress file as this window last read or wrote it, and what it held: the same
    /// progress is not written over itself, and a file another window replaced since is
    /// followed while no one has used this window (`followsAnotherWindow`).
    var progressSeen: (stamp: FileStamp?, progress: SavedProgress?) = (nil, nil)
    /// A person (or QA) has acted in this window since it opened: from then on its place
    /// in the flow is theirs, and another window's progress no longer moves it.
    var usedHere = false
    /// When the screen last changed without the person's doing: this window followed its
    /// folder, or (with `holdsKeysWhenTheScreenChangesUnasked`) a background answer or the
    /// passing of time replaced the screen they could type at. Keys that come in the
    /// moment after were typed at the screen before, and are not applied to the new one.
    var changedUnaskedAt: ContinuousClock.Instant?
    /// How long after such a change a key is let go unapplied: a person reads a screen that
    /// changed under them before typing to it (browsers hold a new prompt's buttons for a
    /// moment for the same reason).
    public static let keysMeantForTheScreenBefore: Duration = .milliseconds(500)
    /// Keys arrive one by one at whatever screen is up (a terminal, a key script), rather
    /// than as answers to a question printed once (`LinePrompter`, which drops a question
    /// a poll overtook): set by the front end that draws screens.
    public var holdsKeysWhenTheScreenChangesUnasked = false

    public init(
        engine: FlowEngine, store: StateStore, operations: OperationRunner, clock: RuntimeClock, mailbox: Mailbox,
        warnings: [String] = [], losses: [SealedLoss] = [], defaults: [String: Value] = [:], delivery: EventDelivery? = nil
    ) {
        self.engine = engine
        self.store = store
        self.operations = operations
        self.clock = clock
        self.mailbox = mailbox
        self.defaults = defaults
        self.delivery = delivery
        launchNotes = warnings
        launchLosses = losses
    }

    /// The run is over: with a quit, what is queued goes to the service (for at most two
    /// seconds; the rest waits for the next run); a signal leaves it queued.
    public func finishDelivery() {
        delivery?.finish(within: ending == .quit ? .seconds(2) : .zero)
    }

    /// The flow's service as the person chose it (Baby Basics' server URL), if it names one.
    var serviceAddress: String? {
        engine.flow.serviceURLKey.flatMap { state.context[$0]?.text }
    }

    /// Starts the flow from what is saved on disk. With `deferringEffects`, what the
    /// launch writes or asks (a progress record, a call) waits for
    /// `performDeferredEffects()`, so a front end can draw the first screen first: nothing
    /// completed is at stake before a person has done anything.
    public func launch(deferringEffects: Bool = false) {
        launch(deferringEffects: deferringEffects, following: false)
        withdrawWhatAnEndedRunLeft()
        if !deferringEffects { delivery?.start() }
    }

    /// A device sign-in a run left open when it ended (a kill, a closed terminal) is given
    /// up at the service, off the UI thread: no screen polls for it any more.
    private func withdrawWhatAnEndedRunLeft() {
        guard engine.flow.screens.contains(where: { $0.poll?.withdraw != nil }) else { return }
        let operations = self.operations
        Task.detached { await operations.withdrawLeftDeviceCodes() }
    }

    /// `following`: another window changed who the folder holds. Progress saved before
    /// that window had a session (its first screen) is not where its account stands: the
    /// flow's signed-in entry asks the service instead.
    /// `drafts`: what was typed on the form the window showed, filled in where the folder's
    /// progress has nothing for it.
    func launch(deferringEffects: Bool, following: Bool, drafts: [String: Value] = [:]) {
        let progressBefore = FileStamp(store.progressPath)
        var saved = store.load()
        // Replaced while it was read: the stamp from before, so the next look follows the
        // newer file. Set aside as damaged (gone now): none.
        let progressAfter = FileStamp(store.progressPath)
        progressSeen = (progressAfter == nil || progressAfter == progressBefore ? progressAfter : progressBefore, saved.progress)
        sessionFileSeen = FileStamp(store.sessionFile.path)
        heldIdentity = store.sessionFile.holder()
        if following, saved.session != nil, saved.progress?.requiresSession == false { saved.progress = nil }
        let losses = saved.losses + launchLosses
        var warnings = saved.warnings
        if !losses.isEmpty {
            // A session outlives the answers, unless its account went with them (the mock's).
            // The store is asked only for a loss: asking a first start's store chooses it.
            warnings.append(
                SealedLoss.said(
                    losses, howLost: store.secrets.howSecretsAreLost, stillSignedIn: saved.session != nil && launchLosses.isEmpty))
        }
        warnings += launchNotes
        launchNotes = []
        launchLosses = []
        let effects = engine.reduce(
            &state,
            .launched(
                Launch(
                    session: saved.session, progress: saved.progress, placeholderUserID: Self.placeholderUserID(),
                    warnings: warnings, defaults: drafts.merging(defaults) { draft, _ in draft }, utcOffset: Self.utcOffset)),
            now: clock.nowMilliseconds())
        if deferringEffects { deferredEffects = effects } else { perform(effects) }
    }

    /// Runs on with a changed flow (`--watch`), keeping the state; returns the screen
    /// left because the new flow no longer has it.
    public func adopt(_ flow: Flow) -> String? {
        engine = FlowEngine(flow: flow)
        let (effects, left) = engine.settle(&state, now: clock.nowMilliseconds())
        perform(effects)
        return left
    }

    /// The launch's effects, after the first screen was drawn; analytics delivery may
    /// begin then too.
    public func performDeferredEffects() {
        let effects = deferredEffects
        deferredEffects = []
        perform(effects)
        delivery?.start()
    }

    /// Forgets the flow's files and launches it afresh, as a first launch would.
    public func reset() {
        dispatch(
            .reset(
                Launch(
                    session: nil, progress: nil, placeholderUserID: Self.placeholderUserID(),
                    defaults: defaults, utcOffset: Self.utcOffset)))
    }

    /// What the current screen shows now; `masking` for a recording.
    public func view(masking: Bool = false) -> ScreenView {
        engine.view(of: state, now: clock.nowMilliseconds(), masking: masking)
    }

    public func dispatch(_ event: FlowEvent) {
        if case .callFinished(_, .failure(let failure)) = event, failure.code == IdentityChanged.code, !folderIsAsExpected() {
            followFolder()
            return
        }
        switch event {
        case .intent(.quit):
            break
        case .intent(let intent):
            if followsAnotherWindow() || typedAtTheScreenBefore {
                if case .paste = intent { sayThePasteWasLetGo() }
                return
            }
            usedHere = true
        case .jump, .reset:
            usedHere = true
        case .tick:
            if followsAnotherWindow() { return }
        default:
            break
        }
        let couldBeTypedAt = holdsKeysWhenTheScreenChangesUnasked && event.comesUnasked && state.phase == .showing && !state.isBusy
        let screenBefore = state.screenID
        let effects = engine.reduce(&state, event, now: clock.nowMilliseconds())
        if couldBeTypedAt, state.screenID != screenBefore { changedUnaskedAt = .now }
        perform(effects)
    }

    /// The one wait of every front end: until mail arrives (an answer, a signal), the
    /// front end's own input is ready, or `milliseconds` pass; then the mail is read.
    /// Returns whether the input hung up (a terminal gone without a SIGHUP reaching us)
    /// and whether the process was continued after a stop.
    @discardableResult
    public func wait(input: Int32? = nil, milliseconds: Int32) -> (inputHungUp: Bool, continued: Bool) {
        var descriptors = [pollfd(fd: mailbox.readDescriptor, events: Int16(POLLIN), revents: 0)]
        if let input { descriptors.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        let hungUp = input != nil && descriptors[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
        let continued = receiveMail()
        return (hungUp, continued)
    }

    /// What arrived in the mailbox: finished calls are dispatched; SIGCONT is a resume;
    /// other signals end the run. Returns whether the process was continued after a stop.
    @discardableResult
    public func receiveMail() -> Bool {
        var continued = false
        for signal in mailbox.readSignals() {
            if signal == SIGCONT {
                continued = true
                dispatch(.resumed)
            } else {
                end(bySignal: signal)
            }
        }
        for event in mailbox.drain() { dispatch(event) }
        return continued
    }

    /// A signal (or the terminal hanging up) ends the run: what is typed is kept first.
    public func end(bySignal signal: Int32) {
        guard ending == nil else { return }
        dispatch(.closing)
        ending = .signal(signal)
    }

    private static func placeholderUserID() -> String {
        "local-" + UUID().uuidString.lowercased()
    }

    private static var utcOffset: Int64 { Instant.utcOffset() }
}
