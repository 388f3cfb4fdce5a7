import Crypto
import ServiceAPI

/// Random identifiers and tokens, and the one-way hashes stored in their place.
enum Secrets {
    /// `bytes` random bytes as lowercase hex.
    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }.joined()
    }

    /// An opaque user id: random, never derived from the machine.
    static func userID() -> String { "u_" + randomHex(bytes: 16) }

    /// The user id a call with this idempotency key creates: a retry whose first answer
    /// was lost (the process killed between the commit and the stored result) finds the
    /// account the first try made instead of making a second. Random without a key.
    static func userID(forIdempotencyKey key: String?) -> String {
        guard let key else { return userID() }
        return "u_" + hash("user-id:" + key).prefix(32)
    }

    static func token(prefix: String) -> String { prefix + randomHex(bytes: 32) }

    /// Tokens are stored only as their SHA-256, so a leaked database grants nothing.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
