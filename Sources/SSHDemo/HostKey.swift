import Crypto
import Foundation
import NIOSSH

/// The server's ed25519 host key: made once, kept 0600 as its 32 raw bytes (swift-nio-ssh
/// reads no OpenSSH key files), and shown to people as OpenSSH shows fingerprints.
public struct HostKey: Sendable {
    public let privateKey: Curve25519.Signing.PrivateKey

    /// Loads the key at `path`, or makes and saves one there.
    public static func loadOrCreate(at path: String) throws -> HostKey {
        if let data = FileManager.default.contents(atPath: path) {
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: data) else {
                throw HostKeyError(description: "\(path) is not an Onboard host key (32 raw ed25519 bytes); move it away to make a new one")
            }
            return HostKey(privateKey: key)
        }
        let key = Curve25519.Signing.PrivateKey()
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard FileManager.default.createFile(atPath: path, contents: key.rawRepresentation, attributes: [.posixPermissions: 0o600]) else {
            throw HostKeyError(description: "cannot write the host key to \(path)")
        }
        return HostKey(privateKey: key)
    }

    public var sshKey: NIOSSHPrivateKey { NIOSSHPrivateKey(ed25519Key: privateKey) }

    /// `SHA256:…` of the public key blob, as `ssh` prints it when it first connects.
    public var fingerprint: String {
        func field(_ bytes: [UInt8]) -> [UInt8] {
            let count = UInt32(bytes.count)
            return [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + bytes
        }
        let blob = field(Array("ssh-ed25519".utf8)) + field(Array(privateKey.publicKey.rawRepresentation))
        let digest = Data(SHA256.hash(data: blob)).base64EncodedString()
        return "SHA256:" + digest.replacingOccurrences(of: "=", with: "")
    }
}

public struct HostKeyError: Error, CustomStringConvertible {
    public var description: String
}
