/// Something the state folder's data key sealed and can no longer open, the key being
/// gone: the answers kept on this device, the embedded mock's accounts. However many
/// there are, one sentence says what happened (one cause, one note).
public struct SealedLoss: Sendable, Equatable {
    /// What was lost, as a person names it: "your saved answers".
    public var what: String
    /// The file it was in, as it was set aside.
    public var keptAs: String

    public init(what: String, keptAs: String) {
        self.what = what
        self.keptAs = keptAs
    }

    /// The one note for all of them; `howLost` says how this folder's store loses a key;
    /// `stillSignedIn`: the session survives it (its account is not among the losses).
    public static func said(_ losses: [SealedLoss], howLost: String, stillSignedIn: Bool) -> String {
        let what = listed(losses.map(\.what)), files = listed(losses.map(\.keptAs))
        return "This folder's data key is no longer here (\(howLost)), so what it sealed could not be opened: \(what). "
            + (stillSignedIn ? "You are still signed in. " : "This starts fresh. ")
            + "The old \(losses.count == 1 ? "file was" : "files were") kept as \(files)."
    }

    private static func listed(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
    }
}
