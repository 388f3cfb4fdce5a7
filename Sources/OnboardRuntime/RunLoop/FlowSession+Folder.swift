import FlowEngine

/// One folder, one identity (`FolderIdentity`): whom this window may act as, and
/// following the folder when another window changed who it holds.
extension FlowSession {
    /// The identities this window may act as now: the one it last saw the folder hold,
    /// and the one its engine took from a call's answer since.
    var expectedIdentity: FolderIdentity {
        FolderIdentity(acceptable: [heldIdentity, state.session?.userID])
    }

    /// Whether the folder holds whom this window expects; the holder is then this window's.
    func folderIsAsExpected(orBecomes next: String?? = .none) -> Bool {
        sessionFileSeen = FileStamp(store.sessionFile.path)
        let holder = store.sessionFile.holder()
        var expected = expectedIdentity
        if case .some(let next) = next { expected.acceptable.insert(next) }
        guard expected.allows(holder) else { return false }
        heldIdentity = holder
        return true
    }

    /// Another window changed who the folder holds: this one starts again from what is on
    /// disk now, and says why. What was typed on the form shown comes along.
    /// Returns whether what the screen shows changed, its notes included: a follow that
    /// leaves the screen as it was, with the same note already up (the folder changed
    /// hands again), is nothing the person has to read first, so it holds no key back.
    @discardableResult
    func followFolder() -> Bool {
        let now = clock.nowMilliseconds()
        let before = engine.view(of: state, now: now)
        launchNotes.append(FolderIdentity.note(nowHolding: store.sessionFile.holder()))
        launch(deferringEffects: false, following: true, drafts: engine.drafts(on: state))
        guard engine.view(of: state, now: now) != before else { return false }
        changedUnaskedAt = .now
        return true
    }

    /// Another window saved the folder's progress since this one read it, before anyone
    /// used this one (a window that saved what was typed as it closed, while this one was
    /// opening): this one goes on from the folder's. Nothing was typed here to carry over.
    /// Returns whether what the screen shows changed, which is then said; a change the
    /// person cannot see (a value behind the screen) holds no key back, and keeps the
    /// notes that were up.
    func followProgress() -> Bool {
        let now = clock.nowMilliseconds()
        let (before, notes) = (shown(apartFromNotes: now), state.warnings)
        launch(deferringEffects: false, following: false)
        guard shown(apartFromNotes: now) != before else {
            state.warnings = notes + state.warnings.filter { !notes.contains($0) }
            return false
        }
        state.warnings.append(FolderIdentity.progressNote)
        changedUnaskedAt = .now
        return true
    }

    /// The screen as the person sees it, leaving out the notes above it.
    private func shown(apartFromNotes now: Int64) -> ScreenView {
        var view = engine.view(of: state, now: now)
        view.warnings = []
        view.notes = []
        return view
    }

    /// Between calls, before a key is applied and on every tick, whom the folder holds
    /// (and, until the window is used, where it stands) is looked at: a change another
    /// window made is followed at once, so no key acts on a screen that belonged to someone
    /// else or was left behind. (While a call is under way its answer decides: a call that
    /// changes who is signed in claims the folder before it answers.)
    func followsAnotherWindow() -> Bool {
        // One `stat` per file, key or tick: a file is read only once something replaced it.
        guard ending == nil, state.phase != .idle, state.calls.entries.isEmpty else { return false }
        if FileStamp(store.sessionFile.path) != sessionFileSeen, !folderIsAsExpected() {
            return followFolder()
        }
        // A window in use keeps its own place: two windows are two views of one person's
        // folder, and one opening a form does not move the other.
        return !usedHere && FileStamp(store.progressPath) != progressSeen.stamp && followProgress()
    }
}
