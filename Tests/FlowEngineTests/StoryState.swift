@testable import FlowEngine
import ScreenTable

/// The whole `FlowState` as named lines, so a story can state every change a step makes
/// and fail on one it did not state, as TCA's `TestStore` compares whole states. Times
/// read against the step's `now` ("now", "now+30s"), so a helper used from stories that
/// start at different instants states the same change.
enum StoryState {
    /// The stored properties `lines` reads (`StoryStateGuardTests` holds this to the state).
    static let projected: Set<String> = [
        "phase", "navigation.screenID", "navigation.history", "navigation.since", "context", "message", "pressedWhileCooling", "warnings",
        "startsRun", "notes", "storageProblems",
        "account.session", "account.onboardingComplete", "account.forcedByJump", "account.startedAt", "account.placeholderUserID",
        "account.utcOffset",
        "form.focus", "form.errors", "form.cursor", "form.killed", "form.typingNumber", "form.typedDigits", "form.revealed",
        "form.editedAt",
        "checklist.tasks", "checklist.startedAt", "renewal.dueAt", "renewal.heldProgress", "renewal.stillDue",
        "calls.entries", "calls.lastFailure", "calls.retries", "calls.silentRetryUsed", "calls.poll", "calls.lastSucceeded",
        "calls.pollEnded",
    ]
    /// Stored properties a story need not state, and why.
    static let unstated: [String: String] = [
        "calls.nextID": "the next call's id: each call's entry is stated under its id"
    ]

    static func lines(_ state: FlowState, now: Int64) -> [String: String] {
        var lines: [String: String] = [:]
        func time(_ ms: Int64?) -> String? {
            guard let ms else { return nil }
            let delta = ms - now
            if delta == 0 { return "now" }
            let seconds = Double(abs(delta)) / 1000
            let amount = seconds == seconds.rounded() ? "\(Int64(seconds))s" : "\(abs(delta))ms"
            return "now" + (delta > 0 ? "+" : "-") + amount
        }
        func put(_ key: String, _ value: String?) { if let value { lines[key] = value } }

        put("phase", "\(state.phase)")
        put("screen", state.screenID)
        put("history", state.history.isEmpty ? nil : state.history.joined(separator: " › "))
        put("since", time(state.screenSince))
        for (key, value) in state.context { put("context.\(key)", describe(value)) }
        put(
            "message",
            state.message.map {
                switch $0 {
                case .notice(let text): "notice: \(text)";
                case .error(let text): "error: \(text)"
                }
            })
        put("cooling", state.pressedWhileCooling.map { "action \($0)" })
        put("warnings", state.warnings.isEmpty ? nil : state.warnings.joined(separator: " | "))
        put("notes", state.notes.isEmpty ? nil : state.notes.joined(separator: " | "))
        put("storage problems", state.storageProblems.isEmpty ? nil : state.storageProblems.joined(separator: " | "))
        put("starts run", state.startsRun ? "yes" : nil)

        let account = state.account
        put("session", account.session.map(describe))
        put("onboarding", account.onboardingComplete ? "complete" : nil)
        put("forced by jump", account.forcedByJump ? "yes" : nil)
        put("started", time(account.startedAt))
        put("placeholder", account.placeholderUserID.isEmpty ? nil : account.placeholderUserID)
        put("utc offset", account.utcOffset == 0 ? nil : "\(account.utcOffset)s")

        let form = state.form
        put("focus", "\(form.focus)")
        for (field, error) in form.errors { put("error.\(field)", error) }
        for (field, cursor) in form.cursor { put("cursor.\(field)", "\(cursor)") }
        put("killed", form.killed.isEmpty ? nil : form.killed)
        put("typing number", form.typingNumber)
        put("typed digits", form.typedDigits.isEmpty ? nil : form.typedDigits)
        put("revealed", form.revealed.isEmpty ? nil : form.revealed.sorted().joined(separator: ", "))
        put("edited", time(form.editedAt))

        put("checklist", state.checklist.tasks.isEmpty ? nil : state.checklist.tasks.map(describe).joined(separator: " | "))
        put("checklist started", time(state.checklist.startedAt))

        put("renewal due", time(state.renewal.dueAt))
        put("renewal held progress", state.renewal.heldProgress?.screen)
        put("renewals still due", state.renewal.stillDue == 0 ? nil : "\(state.renewal.stillDue)")

        let calls = state.calls
        for (id, entry) in calls.entries { put("call \(id)", describe(entry)) }
        put("last failure", calls.lastFailure.map { "\($0.screen)" })
        put("retries", calls.retries == 0 ? nil : "\(calls.retries)")
        put("silent retry used", calls.silentRetryUsed ? "yes" : nil)
        for (operation, at) in calls.lastSucceeded { put("succeeded \(operation.rawValue)", time(at)) }
        put("poll ended", calls.pollEnded)
        put("poll", calls.poll.map { "\($0.screen) every \($0.interval)s, " + (time($0.dueAt).map { "due " + $0 } ?? "out") })
        return lines
    }

    /// What changed, one line each: `key = value`, or `key removed`, sorted by key.
    static func changes(from before: [String: String], to after: [String: String]) -> [String] {
        Set(before.keys).union(after.keys).sorted().compactMap { key in
            switch (before[key], after[key]) {
            case (let old, let new?) where old != new: "\(key) = \(new)"
            case (.some, nil): "\(key) removed"
            default: nil
            }
        }
    }

    static func describe(_ value: Value) -> String {
        switch value {
        case .text(let text): text
        case .list(let items): "[" + items.joined(separator: ", ") + "]"
        }
    }

    static func describe(_ session: Session) -> String {
        var words = [session.userID, session.isAnonymous ? "guest" : "named"]
        if session.onboardingComplete { words.append("complete") }
        if session.isOnThisDeviceOnly { words.append("on this device") }
        return words.joined(separator: " ")
    }

    static func describe(_ status: TaskStatus) -> String {
        switch status {
        case .waiting: "waiting"
        case .running(let note): "running" + (note.map { " (\($0))" } ?? "")
        case .done(let note): "done: \(note)"
        case .fellBack(let note): "fell back: \(note)"
        case .failed(let note): "failed: \(note)"
        }
    }

    static func describe(_ entry: CallTable.Entry) -> String {
        let purpose =
            switch entry.purpose {
            case .user(_, let origin): "user's, from \(origin.screen)"
            case .replaced(let id): "replaced by \(id)"
            case .background: "background"
            case .renewal: "renewal"
            case .task(let index, let attempt): "task \(index), try \(attempt)"
            case .poll(_, let screen): "poll from \(screen)"
            case .abandoned: "abandoned"
            }
        var words = ["\(entry.operation.rawValue) (\(purpose))"]
        if entry.held { words.append("held") }
        if entry.renewedFor { words.append("renewed for") }
        if entry.keyed { words.append("keyed") }
        return words.joined(separator: ", ")
    }
}
