import Crypto
import Foundation
import Hummingbird
import ServiceAPI

/// The operator's bearer token for `/api/v1/admin` (`--admin-token-file` or
/// `ONBOARD_ADMIN_TOKEN`): a secret apart from every session, compared in constant time.
/// Without one the reports answer no one.
public enum AdminToken {
    /// Shorter than this is refused at start-up: a guessable token would open the reports.
    static let minimumLength = 32

    static func check(_ request: Request, against expected: String?) throws {
        guard let expected else {
            throw ServiceError(
                .unauthorized, "The reports are off: onboard-server was started without --admin-token-file or ONBOARD_ADMIN_TOKEN.")
        }
        let header = request.headers[.authorization] ?? ""
        let given = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : ""
        // Hashes of equal length, compared without an early exit.
        let match = SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(expected.utf8))
        guard match else { throw ServiceError(.unauthorized, "This needs the operator's admin token as the bearer.") }
    }

    /// The token from a file (its first line) or the environment; a short one is refused.
    public static func load(file: String?, environment: [String: String]) throws -> String? {
        let text: String?
        if let file {
            let contents: String?
            do { contents = try SecretFile.read(file) } catch { throw Unusable(description: "\(error)") }
            guard let contents else { throw Unusable(description: "cannot read \(file)") }
            text = contents.split(whereSeparator: \.isNewline).first.map(String.init)
        } else {
            text = environment["ONBOARD_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let token = text?.trimmingCharacters(in: .whitespaces) else { return nil }
        guard token.count >= minimumLength else {
            throw Unusable(description: "the admin token must be at least \(minimumLength) characters (try: openssl rand -hex 32)")
        }
        guard estimatedBits(token) >= minimumBits else {
            throw Unusable(
                description:
                    "the admin token looks guessable (few different characters, or a word repeated); make one with: openssl rand -hex 32")
        }
        return token
    }

    /// Below this the token is refused: `openssl rand -hex 32` is about 240 by this measure,
    /// a random 32-character hex string about 118; 32 `a`s are 0, a word repeated under 90.
    static let minimumBits = 100.0

    /// The token's length times the Shannon entropy of its own characters: a floor on
    /// what a guesser who knows its alphabet and make-up must try, blind to any structure
    /// beyond repetition.
    static func estimatedBits(_ token: String) -> Double {
        let counts = Dictionary(token.map { ($0, 1) }, uniquingKeysWith: +)
        let length = Double(token.count)
        let perCharacter = counts.values.reduce(0.0) { sum, count in
            let share = Double(count) / length
            return sum - share * log2(share)
        }
        return perCharacter * length
    }

    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }
}
