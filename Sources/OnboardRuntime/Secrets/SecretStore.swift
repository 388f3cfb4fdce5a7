import FoundationEssentials

/// Where a state folder's secrets live: its sessions' tokens (and so RuckTracker's guest
/// identity) and the key that encrypts the personal values in its progress files. The
/// system keyring where a Secret Service answers, a private file otherwise.
public protocol SecretStore: Sendable {
    /// Which backend, in a person's words, for notices and the QA console.
    var summary: String { get }
    /// How its secrets go missing, in a person's words: said when one is gone.
    var howSecretsAreLost: String { get }
    /// The secret, or nil when there is none. Throws when the backend failed to answer.
    func read(_ item: SecretItem) throws -> String?
    /// Stores or replaces the secret in one step: a kill leaves the old or the new one.
    func write(_ secret: String, for item: SecretItem) throws
    /// Removes the item; nothing to remove is not an error.
    func delete(_ item: SecretItem) throws
    /// Removes every item of the state folder (`onboard reset` with no flow).
    func deleteAll() throws
}

/// One secret of a state folder.
public struct SecretItem: Hashable, Sendable {
    public enum Kind: String, Sendable {
        /// A flow's session, tokens included (JSON).
        case session
        /// The state folder's AES-256 key for personal data (base64).
        case dataKey = "data-key"
    }

    public var kind: Kind
    /// The flow a session belongs to; the data key is the whole folder's.
    public var flow: String

    public static func session(_ flow: String) -> SecretItem { SecretItem(kind: .session, flow: flow) }
    public static let dataKey = SecretItem(kind: .dataKey, flow: "")

    /// How a person finds it in Seahorse or `secret-tool`: onboard/<flow>/<state folder>.
    public func label(stateDirectory: String) -> String {
        "onboard/\(kind == .dataKey ? "data-key" : flow)/\(stateDirectory)"
    }
}

/// A backend that could not do what was asked, in plain words.
public struct SecretStoreError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
