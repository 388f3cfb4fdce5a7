import Crypto
import Foundation

/// Known devices (OWASP's "device cookies"): a password sign-in gives the device
/// a token that names the account, signed with a key derived from the service's secret.
/// A log-in that brings a token for the account it is for counts its failures on that
/// device alone, so whoever guesses at an email from elsewhere, however often, locks out
/// only untrusted devices, never the owner's. Nothing is stored: the signature is the
/// proof, and a token is worth only its own share of failures.
struct DeviceTokens: Sendable {
    private let key: SymmetricKey
    private static let version = "dt1"

    init(secret: [UInt8]) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret), info: Array("onboard device tokens".utf8), outputByteCount: 32)
    }

    /// A new token for a device that just signed in as `userID`.
    func make(for userID: String) -> String {
        let body = "\(Self.version).\(userID).\(Secrets.randomHex(bytes: 16))"
        return body + "." + Data(HMAC<SHA256>.authenticationCode(for: Array(body.utf8), using: key)).base64EncodedString()
    }

    /// The device a token stands for, when this service signed it for `userID`; nil for
    /// another account's, a forgery or garbage.
    func device(in token: String, for userID: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 200, parts.count == 4, parts[0] == Self.version, parts[1] == userID,
            let mac = Data(base64Encoded: String(parts[3]))
        else { return nil }
        let body = parts[0...2].joined(separator: ".")
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(body.utf8), using: key) else { return nil }
        return String(parts[2])
    }
}
