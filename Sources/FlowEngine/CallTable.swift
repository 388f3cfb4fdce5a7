import ScreenTable

/// Every call under way, by id, with what its result is for: when one ends, one lookup
/// says what to do with it. Also what Try Again needs: where the last failure came from.
public struct CallTable: Equatable, Sendable {
    public enum Purpose: Equatable, Sendable {
        /// The call the user waits for (a spinner; keys other than quit wait too).
        case user(ServiceCall, from: FlowState.Origin)
        /// A user call that a silent retry replaced: its success still counts, its
        /// failure not (the retry is still under way).
        case replaced(by: Int)
        /// Fills the context only (Home's message); a failure leaves the fallback text.
        case background
        /// Renews the session, on launch or ahead of expiry.
        case renewal
        /// A checklist task's call: which task, which attempt (from 1).
        case task(index: Int, attempt: Int)
        /// A screen's poll (`Screen.poll`), made from `screen`: the screen stays usable.
        case poll(ServiceCall, screen: String)
        /// Its screen is gone (a QA jump, a sign-out): the result is dropped.
        case abandoned
    }

    public struct Entry: Equatable, Sendable {
        public var operation: Operation
        public var purpose: Purpose
        /// Sent with an idempotency key: its success forgets the key.
        public var keyed = false
        /// What was (or will be) sent.
        public var request: CallRequest?
        /// Held until the session is renewed (its token was about to expire, or the
        /// service turned it down): sent then, with the renewed session.
        public var held = false
        /// Already renewed for once: a second refusal is the answer.
        public var renewedFor = false
    }

    public private(set) var entries: [Int: Entry] = [:]
    private var nextID = 1
    /// Where the last failed user call came from: Try Again makes it again from there.
    public var lastFailure: FlowState.Origin?
    /// Try Again presses since the last success, for the retry event's `attempt_number`.
    public var retries = 0
    /// After a suspend the user's call is sent again once; not again until a new call.
    public var silentRetryUsed = false
    /// The shown screen's poll: when it is next made (nil while one is out), and how
    /// often (seconds).
    public var poll: PollTimer?
    /// When each operation last succeeded (ms): a cooldown on a button that makes it again
    /// counts from there, wherever it was made (Resend Code after Change Number and back
    /// counts from the code the service already sent, as the service does).
    public var lastSucceeded: [Operation: Int64] = [:]
    /// The screen whose poll ended on it without leaving (its code expired): what it
    /// waited on is over, and the screen no longer shows it.
    public var pollEnded: String?

    public struct PollTimer: Equatable, Sendable {
        public var screen: String
        public var dueAt: Int64?
        public var interval: Int64
    }

    public init() {}

    /// Onboarding is done: the last failure and its retries are over.
    mutating func forgetFailures() {
        lastFailure = nil
        retries = 0
    }

    /// No calls and no failure, but ids go on from here: an answer to a call made before
    /// a relaunch (a QA reset) is never taken for a new call's.
    func afterRelaunch() -> CallTable {
        var table = CallTable()
        table.nextID = nextID
        return table
    }

    /// Records a call about to be sent and returns its id.
    mutating func add(_ operation: Operation, for purpose: Purpose) -> Int {
        let id = nextID
        nextID += 1
        entries[id] = Entry(operation: operation, purpose: purpose)
        return id
    }

    mutating func markKeyed(_ id: Int) {
        entries[id]?.keyed = true
    }

    mutating func remove(_ id: Int) -> Entry? {
        entries.removeValue(forKey: id)
    }

    mutating func record(_ request: CallRequest) {
        entries[request.id]?.request = request
    }

    /// Keeps a call (back) in the table, unsent until the session is renewed.
    mutating func hold(_ id: Int, _ entry: Entry) {
        var entry = entry
        entry.held = true
        entries[id] = entry
    }

    /// The calls held for a renewal, oldest first, no longer held.
    mutating func releaseHeld() -> [CallRequest] {
        let held = entries.filter(\.value.held).sorted { $0.key < $1.key }
        for (id, _) in held { entries[id]?.held = false }
        return held.compactMap(\.value.request)
    }

    /// The calls the user waits for and checklist tasks are dropped; background calls and
    /// a renewal still land.
    mutating func abandonForeground() {
        poll = nil
        for (id, entry) in entries {
            if entry.held {
                // Never sent: nothing will answer it.
                entries[id] = nil
                continue
            }
            switch entry.purpose {
            case .user, .replaced, .task, .poll: entries[id]?.purpose = .abandoned
            case .background, .renewal, .abandoned: break
            }
        }
    }

    /// A silent retry: `new` stands for the user's call `old` from now on.
    mutating func replace(_ old: Int, by new: Int) {
        entries[old]?.purpose = .replaced(by: new)
    }

    /// Forgets the calls `id` replaced, once its result is in.
    mutating func dropReplaced(by id: Int) {
        for (other, entry) in entries where entry.purpose == .replaced(by: id) {
            entries[other]?.purpose = .abandoned
        }
    }

    /// The call the user waits for, if any.
    public var userCall: (id: Int, call: ServiceCall, origin: FlowState.Origin)? {
        for (id, entry) in entries {
            if case .user(let call, let origin) = entry.purpose { return (id, call, origin) }
        }
        return nil
    }

    /// A screen's background loads are still out (MIGA's hub computing today's streak).
    public var loadingInBackground: Bool {
        entries.values.contains { if case .background = $0.purpose { true } else { false } }
    }

    public var renewalID: Int? {
        entries.first { $0.value.purpose == .renewal }?.key
    }

    /// The checklist task under way.
    public var task: TaskCall? {
        for (id, entry) in entries {
            if case .task(let index, let attempt) = entry.purpose { return TaskCall(id: id, index: index, attempt: attempt) }
        }
        return nil
    }
}

/// A checklist task's call: which task, which attempt (from 1).
public struct TaskCall: Equatable, Sendable {
    public var id: Int
    public var index: Int
    public var attempt: Int
}
