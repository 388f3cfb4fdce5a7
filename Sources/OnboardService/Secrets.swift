import Crypto
import Foundation
import ServiceAPI

/// Random identifiers and tokens, and the one-way hashes stored in their place.
enum Secrets {
    /// `bytes` random bytes as lowercase hex, from BoringSSL's CSPRNG (seeded by the
    /// kernel): one call for all of them, where the system generator made a getrandom
    /// syscall per byte, a sixth of a sign-in's time.
    static func randomHex(bytes: Int) -> String {
        SymmetricKey(size: SymmetricKeySize(bitCount: bytes * 8)).withUnsafeBytes { random in
            random.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        }
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

    /// A session's refresh family: the milliseconds of the wall clock, then 80 random
    /// bits. In time order, a new family goes at the end of the family index, on a page
    /// the last commit already wrote, instead of on a random one (DECISIONS 42). The
    /// time is only an order; nothing reads it.
    static func familyID() -> String {
        let milliseconds = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        return String(milliseconds, radix: 16).leftPadded(to: 12) + randomHex(bytes: 10)
    }

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
