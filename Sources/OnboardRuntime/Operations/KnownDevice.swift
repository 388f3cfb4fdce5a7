import Foundation
import InputRules

/// The tokens that make this state folder a known device to the service, one per email
/// it signed in with by password (`device-tokens.json` in the flow's folder, sealed with
/// the folder's data key). Sent with a log-in to that email, so someone else's wrong
/// guesses, which lock the account for unknown devices, never lock this one out. Kept
/// across sign-out: that is when its owner needs it.
struct KnownDevice {
    private struct Sealed: Codable {
        var sealedTokens: String
    }

    let path: String?
    let personal: PersonalData?

    /// The token for `email`; nil when there is none, or it cannot be read now.
    func token(for email: String) -> String? {
        (try? tokens())?[Self.key(email)]
    }

    /// Keeps the token the service gave a password sign-in to `email`.
    func keep(_ token: String?, for email: String) {
        guard let token, let path, let personal else { return }
        try? FileLock.exclusive(path + ".lock") {
            var tokens = (try? self.tokens()) ?? [:]
            guard tokens[Self.key(email)] != token else { return }
            tokens[Self.key(email)] = token
            try AtomicFile.writeJSON(Sealed(sealedTokens: try personal.seal(try JSONEncoder().encode(tokens))), to: path)
        }
    }

    private func tokens() throws -> [String: String] {
        guard let path, let personal, let data = FileManager.default.contents(atPath: path) else { return [:] }
        let sealed = try JSONDecoder().decode(Sealed.self, from: data)
        return try JSONDecoder().decode([String: String].self, from: try personal.open(sealed.sealedTokens))
    }

    /// The email as the service compares it, so a token is found however it was typed.
    private static func key(_ email: String) -> String {
        InputRules.normalisedEmail(email) ?? email.lowercased()
    }
}
