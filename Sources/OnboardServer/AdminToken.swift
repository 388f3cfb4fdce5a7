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
            throw ServiceError(.unauthorized, "The reports are off: onboard-server was started without --admin-token-file or ONBOARD_ADMIN_TOKEN.")
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
            guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else { throw Unusable(description: "cannot read \(file)") }
            text = contents.split(whereSeparator: \.isNewline).first.map(String.init)
        } else {
            text = environment["ONBOARD_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let token = text?.trimmingCharacters(in: .whitespaces) else { return nil }
        guard token.count >= minimumLength else {
            throw Unusable(description: "the admin token must be at least \(minimumLength) characters (try: openssl rand -hex 32)")
        }
        return token
    }

    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }
}
