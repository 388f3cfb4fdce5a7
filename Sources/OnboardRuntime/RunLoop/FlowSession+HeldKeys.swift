import FlowEngine

/// Keys typed at the screen before: a screen that changed without the person's doing is
/// read before it is typed at, so keys that come in the moment after are let go.
extension FlowSession {
    /// A key now comes before the person could have read the screen that changed under
    /// them (the folder's, or one a background answer put up).
    public var typedAtTheScreenBefore: Bool {
        guard let changedUnaskedAt else { return false }
        return ContinuousClock.now - changedUnaskedAt < Self.keysMeantForTheScreenBefore
    }

    /// Said when a paste came in that moment: a few keys are retyped without a thought,
    /// but a paste is work the person would not know was gone.
    public static let pasteLetGoNote =
        "What you pasted came as this screen changed, so it was not put in. Paste it again if it belongs here."

    func sayThePasteWasLetGo() {
        if !state.warnings.contains(Self.pasteLetGoNote) { state.warnings.append(Self.pasteLetGoNote) }
    }
}

extension FlowEvent {
    /// Comes without the person asking for it now: an answer (the one they wait for is
    /// told apart by the screen being busy), time passing, a resume. Their keys, QA's
    /// jumps and resets, and the run's own start and end are asked for.
    var comesUnasked: Bool {
        switch self {
        case .callFinished, .tick, .resumed, .clockMoved: true
        case .launched, .intent, .jump, .closing, .storageFailed, .reset: false
        }
    }
}
