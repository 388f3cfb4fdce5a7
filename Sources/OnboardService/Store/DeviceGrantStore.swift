import ServiceAPI

/// Device authorizations (RFC 8628): a terminal's sign-in approved in a browser.
public protocol DeviceGrantStore: Sendable {
    /// A new grant, waiting for the person to approve it in a browser.
    func createDeviceGrant(_ grant: NewDeviceGrant) async throws
    /// The unexpired grant waiting under this user code, for the verification page.
    func pendingDeviceGrant(userCode: String, now: Int64) async throws -> PendingDeviceGrant?
    /// Approves (with the identity the provider vouched for) or denies a grant still
    /// waiting; false when there is none under this code.
    func decideDeviceGrant(userCode: String, identity: DeviceIdentity?, now: Int64) async throws -> Bool
    /// One poll, atomically: too soon after the last one, still waiting, refused, expired,
    /// or approved — then spent, so a second poll with the same device code gets nothing.
    func pollDeviceGrant(deviceCodeHash: String, now: Int64) async throws -> DeviceGrantPoll
    /// The terminal gave the sign-in up: a grant not yet spent can no longer be approved
    /// or polled for (an approval already made is dropped with it).
    func withdrawDeviceGrant(deviceCodeHash: String) async throws
}

/// A device authorization as it is made: the device code only as its hash.
public struct NewDeviceGrant: Sendable, Equatable {
    public var deviceCodeHash: String
    /// Normalised: upper case, no dash.
    public var userCode: String
    public var provider: String
    public var createdAt: Int64
    public var expiresAt: Int64
    public var interval: Int64
    /// The address of the terminal that asked, said on the page that confirms it.
    public var requestedFrom: String

    public init(
        deviceCodeHash: String, userCode: String, provider: String, createdAt: Int64, expiresAt: Int64, interval: Int64,
        requestedFrom: String = ""
    ) {
        (self.deviceCodeHash, self.userCode, self.provider, self.createdAt, self.expiresAt, self.interval, self.requestedFrom) =
            (deviceCodeHash, userCode, provider, createdAt, expiresAt, interval, requestedFrom)
    }
}

/// A grant waiting under a user code: what the page that confirms it says (which
/// provider, when and from where the terminal asked).
public struct PendingDeviceGrant: Sendable, Equatable {
    public var provider: String
    public var expiresAt: Int64
    public var createdAt: Int64
    public var requestedFrom: String

    public init(provider: String, expiresAt: Int64, createdAt: Int64 = 0, requestedFrom: String = "") {
        (self.provider, self.expiresAt, self.createdAt, self.requestedFrom) = (provider, expiresAt, createdAt, requestedFrom)
    }
}

/// Who the provider says approved a grant.
public struct DeviceIdentity: Sendable, Equatable {
    public var subject: String
    public var email: String?

    public init(subject: String, email: String?) {
        (self.subject, self.email) = (subject, email)
    }
}

public enum DeviceGrantPoll: Sendable, Equatable {
    case unknown
    case expired
    /// Polled too soon: the grant's interval is now `interval` (five seconds more, RFC
    /// 8628 §3.5, for this and every later poll).
    case slowDown(interval: Int64)
    case pending
    case denied
    case approved(provider: String, identity: DeviceIdentity, expiresAt: Int64)
}
