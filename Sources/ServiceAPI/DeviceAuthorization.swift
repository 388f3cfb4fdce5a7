/// A sign-in approved on another device (RFC 8628 §3.2): the person opens
/// `verificationURI` in any browser (a phone, when this is an SSH session) and types
/// `userCode`, or opens `verificationURIComplete`, which carries it; this device polls
/// with `deviceCode` every `interval` seconds until the answer, for `expiresIn` seconds.
public struct DeviceAuthorization: Codable, Sendable, Equatable {
    public var deviceCode: String
    /// `BCDF-GHJK`: eight letters without vowels or look-alikes, shown in two halves.
    public var userCode: String
    public var verificationURI: String
    public var verificationURIComplete: String
    public var expiresIn: Int64
    public var interval: Int64

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code", userCode = "user_code", verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete", expiresIn = "expires_in", interval
    }

    public init(
        deviceCode: String, userCode: String, verificationURI: String, verificationURIComplete: String, expiresIn: Int64, interval: Int64
    ) {
        (self.deviceCode, self.userCode, self.verificationURI, self.verificationURIComplete, self.expiresIn, self.interval) =
            (deviceCode, userCode, verificationURI, verificationURIComplete, expiresIn, interval)
    }
}
