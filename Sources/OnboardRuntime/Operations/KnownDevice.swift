import FoundationEssentials
import InputRules

/// The tokens that make this state folder a known device to the service, one per email
/// it signed in with by password (`device-tokens.json` in the flow's folder, sealed with
/// the folder's data key). Sent with a log-in to that email, so someone else's wrong
/// guesses, which lock the account for unknown devices, never lock this one out. Kept
/// across sign-out: that is when its owner needs it.
struct KnownDevice {
    let path: String?
    /// nil keeps no tokens (tests of the runner without a state folder).
    let personal: PersonalData?

    private var file: SealedFile<[String: String]> {
        SealedFile(path: path, personal: personal, field: "sealedTokens", what: "This device's sign-in tokens", empty: [:])
    }

    /// The token for `email`; nil when there is none, or it cannot be read now.
    func token(for email: String) -> String? {
        (try? file.contents())?[Self.key(email)]
    }

    /// Keeps the token the service gave a password sign-in to `email`.
    func keep(_ token: String?, for email: String) {
        guard let token, path != nil, personal != nil else { return }
        try? file.change { tokens in tokens.merging([Self.key(email): token]) { $1 } }
    }

    /// The email as the service compares it, so a token is found however it was typed.
    private static func key(_ email: String) -> String {
        InputRules.normalisedEmail(email) ?? email.lowercased()
    }
}
