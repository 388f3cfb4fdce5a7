import Crypto
import Foundation
import ServiceAPI

/// base64url without padding (RFC 4648 §5), as JOSE and PKCE write bytes.
public enum Base64URL {
    public static func encode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// What the server hands a browser and reads back later — a social sign-in's `state`,
/// the development provider's authorization codes — sealed (AES-GCM) under a key derived
/// from the service's secret, so it can be neither read nor altered on the way, and every
/// instance sharing the store opens what another sealed. `purpose` is authenticated too:
/// one kind of seal is never taken for another.
extension OnboardService {
    public func sealForBrowser(_ value: some Encodable, purpose: String) throws -> String {
        let plain = try JSONEncoder().encode(value)
        let box = try AES.GCM.seal(plain, using: browserKey, authenticating: Array(purpose.utf8))
        guard let combined = box.combined else { throw ServiceError.failedUnexpectedly }
        return Base64URL.encode(combined)
    }

    /// The value sealed for `purpose`; nil for anything altered, made up or sealed for
    /// another purpose.
    public func unsealFromBrowser<Value: Decodable>(_ text: String, as type: Value.Type, purpose: String) -> Value? {
        guard text.count <= 8192, let combined = Base64URL.decode(text), let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: browserKey, authenticating: Array(purpose.utf8))
        else { return nil }
        return try? JSONDecoder().decode(type, from: plain)
    }
}
