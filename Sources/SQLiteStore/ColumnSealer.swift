import Crypto
import Foundation
import GRDB
import OnboardService
import ServiceAPI
import Synchronization

/// The embedded mock's personal columns — emails, phones, names, profile answers,
/// children, records, the outbox's destinations — sealed with a key of the state folder
/// the mock belongs to, as the client's own progress is (DECISIONS 32). Each statement
/// says what it keeps sealed with one of three SQL functions:
/// - `seal(x)`: AES-256-GCM under a random nonce, for values that are only read back;
/// - `seal_key(x)`: the same under a nonce derived from the value (an HMAC, as in SIV),
///   so a value seals alike every time and can be looked up and kept unique (emails,
///   phones, display names); it shows which rows hold equal values, nothing more;
/// - `unseal(x)`: either, opened; a value that was never sealed passes through.
/// A database opened without a sealer (onboard-server's, a shared `--mock-db`) has the
/// same three functions passing values through, so the statements are one set.
public final class ColumnSealer: Sendable {
    private let source: @Sendable () throws -> SymmetricKey
    private let derived = Mutex<Keys?>(nil)

    private struct Keys {
        let encryption: SymmetricKey
        let nonces: SymmetricKey
    }

    /// `key` is asked for on the first value sealed or opened, and once.
    public init(key: @escaping @Sendable () throws -> SymmetricKey) {
        source = key
    }

    /// A sealed value: this prefix, then base64 of nonce, ciphertext and tag.
    static let prefix = "sealed1:"

    func seal(_ plain: String, deterministic: Bool) throws -> String {
        let keys = try self.keys()
        let nonce: AES.GCM.Nonce
        if deterministic {
            let mac = HMAC<SHA256>.authenticationCode(for: Data(plain.utf8), using: keys.nonces)
            nonce = try AES.GCM.Nonce(data: Data(mac).prefix(12))
        } else {
            nonce = AES.GCM.Nonce()
        }
        // `combined` is nil only for a nonce other than 12 bytes; ours always are.
        guard let combined = try AES.GCM.seal(Data(plain.utf8), using: keys.encryption, nonce: nonce).combined else { throw Unopenable() }
        return Self.prefix + combined.base64EncodedString()
    }

    func open(_ text: String) throws -> String {
        guard text.hasPrefix(Self.prefix) else { return text }
        guard let combined = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))) else { throw Unopenable() }
        let plain = try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: keys().encryption)
        return String(decoding: plain, as: UTF8.self)
    }

    struct Unopenable: Error {}

    private func keys() throws -> Keys {
        if let known = derived.withLock({ $0 }) { return known }
        let root = try source()
        // One key per use, derived apart, so the nonce's HMAC never shares a key with GCM.
        func subkey(_ purpose: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: root, info: Data("onboard mock columns: \(purpose)".utf8), outputByteCount: 32)
        }
        let made = Keys(encryption: subkey("encryption"), nonces: subkey("nonces"))
        derived.withLock { $0 = made }
        return made
    }

    // MARK: SQL

    /// The three functions on a connection: sealing with this sealer's key.
    func register(in db: Database) {
        db.add(
            function: DatabaseFunction("seal", argumentCount: 1, pure: false) { [self] in
                try text($0[0]) { try seal($0, deterministic: false) }
            })
        db.add(
            function: DatabaseFunction("seal_key", argumentCount: 1, pure: true) { [self] in
                try text($0[0]) { try seal($0, deterministic: true) }
            })
        db.add(function: DatabaseFunction("unseal", argumentCount: 1, pure: true) { [self] in try text($0[0]) { try open($0) } })
    }

    /// The three functions on a connection of a database kept unsealed.
    static func registerPassThrough(in db: Database) {
        for name in ["seal", "seal_key", "unseal"] {
            db.add(function: DatabaseFunction(name, argumentCount: 1, pure: true) { $0[0] })
        }
    }

    /// Text changed by `change`; NULL stays NULL.
    private func text(_ value: DatabaseValue, _ change: (String) throws -> String) throws -> (any DatabaseValueConvertible)? {
        guard let text = String.fromDatabaseValue(value) else { return value }
        return try change(text)
    }

    // MARK: Adoption

    /// A row saying the file is sealed, with a value only the right key opens.
    static let checkName = "column-seal-check"
    static let checkText = "onboard embedded mock"

    /// Whether a file's columns are sealed (by some state folder's key).
    static func isSealed(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM service_keys WHERE name = ?", arguments: [checkName]) ?? false
    }

    /// Seals a file's columns the first time it is opened with this sealer (a file made
    /// before sealing), or checks that this key is the one that sealed them.
    func adopt(_ queue: DatabaseQueue, path: String) throws {
        let converted: Bool = try queue.write { db in
            if let check = try Data.fetchOne(db, sql: "SELECT secret FROM service_keys WHERE name = ?", arguments: [Self.checkName]) {
                guard (try? self.open(String(decoding: check, as: UTF8.self))) == Self.checkText else { throw ForeignKey(path: path) }
                return false
            }
            try db.execute(
                sql: """
                    UPDATE users SET email = seal_key(email), phone = seal_key(phone), display_name = seal_key(display_name), name = seal(name),
                        display_key = seal_key(display_key);
                    UPDATE phone_codes SET phone = seal_key(phone);
                    UPDATE profiles SET data = seal(data);
                    UPDATE children SET name = seal(name), birth_date = seal(birth_date);
                    UPDATE records SET value = seal(value);
                    UPDATE outbox SET destination = seal(destination);
                    """)
            try db.execute(
                sql: "INSERT INTO service_keys (name, secret) VALUES (?, ?)",
                arguments: [Self.checkName, Data(try self.seal(Self.checkText, deterministic: false).utf8)])
            return true
        }
        // The values in clear are overwritten in the file (secure_delete) once the log is
        // copied back; the log itself is emptied.
        if converted { try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } }
    }

    /// The file was sealed with another key: the folder's keyring item was reset, or the
    /// file came from another folder or computer.
    public struct ForeignKey: Error, CustomStringConvertible {
        public let path: String
        public var description: String {
            "its personal data is sealed with a data key this state folder no longer has (the keyring was reset, or the file came from another folder or computer)"
        }
    }
}
