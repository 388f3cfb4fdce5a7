/// Every call of `/api/v1`, declared once as a `WireCall`: its body's fields, its
/// endpoint and its answer. The HTTP transport encodes them, the server's routes decode
/// them, and a test holds each body to its schema of the same name in `openapi.yaml`
/// (`#/components/schemas/…`). Answers that are models of their own (`IssuedSession`,
/// `Profile`, …) live beside those models.
public enum Wire {
    public struct FlowRequest: WireCall, Equatable {
        public typealias Answer = AnonymousSignIn
        public static let endpoint = Endpoint(.post, "/auth/anonymous")
        /// A flow's id: the service picks its guests' token lifetimes by it.
        public var flow: String?
        public init(flow: String?) { self.flow = flow }
    }

    public struct NameRequest: WireCall, Equatable {
        public typealias Answer = Profile
        public static let endpoint = Endpoint(.post, "/user/name", needsSession: true)
        public var name: String
        public init(name: String) { self.name = name }
    }

    public struct RegisterRequest: WireCall, Equatable {
        public typealias Answer = IssuedSession
        public static let endpoint = Endpoint(.post, "/auth/register")
        public var flow: String?
        public var name: String
        public var email: String
        public var password: String
        public init(flow: String?, name: String, email: String, password: String) {
            (self.flow, self.name, self.email, self.password) = (flow, name, email, password)
        }
    }

    /// A log-in; a guest's bearer token may go with it (its purchases follow the person).
    public struct LoginRequest: WireCall, Equatable {
        public typealias Answer = IssuedSession
        public static let endpoint = Endpoint(.post, "/auth/login")
        public var flow: String?
        public var email: String
        public var password: String
        /// List records (`rucks`) the guest leaving for the account brings, with the
        /// person's yes: added to the account's in the log-in's transaction.
        public var bring: [String]?
        public init(flow: String?, email: String, password: String, bring: [String]? = nil) {
            (self.flow, self.email, self.password, self.bring) = (flow, email, password, bring)
        }
    }

    /// An email and password linked to the signed-in guest.
    public struct LinkEmailRequest: WireCall, Equatable {
        public typealias Answer = IssuedSession
        public static let endpoint = Endpoint(.post, "/auth/link-email", needsSession: true)
        public var flow: String?
        public var email: String
        public var password: String
        public init(flow: String?, email: String, password: String) {
            (self.flow, self.email, self.password) = (flow, email, password)
        }
    }

    public struct RefreshRequest: WireCall, Equatable {
        public typealias Answer = IssuedSession
        public static let endpoint = Endpoint(.post, "/auth/refresh")
        public var refreshToken: String
        enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
        public init(refreshToken: String) { self.refreshToken = refreshToken }
    }

    /// A log-out (the `RefreshRequest` schema): the refresh token's family is ended.
    public struct LogoutRequest: WireCall, Equatable {
        public typealias Answer = Wire.Empty
        public static let endpoint = Endpoint(.post, "/auth/logout")
        public var refreshToken: String
        enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
        public init(refreshToken: String) { self.refreshToken = refreshToken }
    }

    public struct PhoneRequest: WireCall, Equatable {
        public typealias Answer = PhoneCodeSent
        public static let endpoint = Endpoint(.post, "/auth/phone/send")
        public var phone: String
        public init(phone: String) { self.phone = phone }
    }

    public struct PhoneVerifyRequest: WireCall, Equatable {
        public typealias Answer = SignIn
        public static let endpoint = Endpoint(.post, "/auth/phone/verify")
        public var flow: String?
        public var phone: String
        public var code: String
        public init(flow: String?, phone: String, code: String) {
            (self.flow, self.phone, self.code) = (flow, phone, code)
        }
    }

    public struct IdentityTokenRequest: WireCall, Equatable {
        public typealias Answer = Wire.IdentityToken
        public static let endpoint = Endpoint(.post, "/mock-idp/token", isDev: true)
        public var provider: String
        public var account: String
        public var audience: String
        public var nonce: String
        public init(provider: String, account: String, audience: String, nonce: String) {
            (self.provider, self.account, self.audience, self.nonce) = (provider, account, audience, nonce)
        }
    }

    public struct SocialRequest: WireCall, Equatable {
        public typealias Answer = SignIn
        public static let endpoint = Endpoint(.post, "/auth/social")
        public var flow: String?
        public var provider: String
        public var idToken: String
        public var nonce: String?
        enum CodingKeys: String, CodingKey { case flow, provider, idToken = "id_token", nonce }
        public init(flow: String?, provider: String, idToken: String, nonce: String?) {
            (self.flow, self.provider, self.idToken, self.nonce) = (flow, provider, idToken, nonce)
        }
    }

    /// A social sign-in approved in a browser (RFC 8628 §3.1): this device gets the codes.
    public struct DeviceAuthorizationRequest: WireCall, Equatable {
        public typealias Answer = DeviceAuthorization
        public static let endpoint = Endpoint(.post, "/auth/social/device")
        public var flow: String?
        public var provider: String
        public init(flow: String?, provider: String) { (self.flow, self.provider) = (flow, provider) }
    }

    /// This device's poll (RFC 8628 §3.4): the session once approved, else
    /// `authorization_pending`, `slow_down`, `access_denied` or `expired_token`.
    public struct DeviceTokenRequest: WireCall, Equatable {
        public typealias Answer = SignIn
        public static let endpoint = Endpoint(.post, "/auth/social/device/token")
        public var flow: String?
        public var deviceCode: String
        enum CodingKeys: String, CodingKey { case flow, deviceCode = "device_code" }
        public init(flow: String?, deviceCode: String) { (self.flow, self.deviceCode) = (flow, deviceCode) }
    }

    /// This device gave the sign-in up (RFC 8628 leaves it to the device; RFC 7009's
    /// revocation is the model): the code can no longer be approved. Always 200.
    public struct DeviceWithdrawalRequest: WireCall, Equatable {
        public typealias Answer = Wire.Empty
        public static let endpoint = Endpoint(.post, "/auth/social/device/withdraw")
        public var deviceCode: String
        enum CodingKeys: String, CodingKey { case deviceCode = "device_code" }
        public init(deviceCode: String) { self.deviceCode = deviceCode }
    }

    /// The mock provider's approval in the terminal (the embedded mock has no browser):
    /// its ID token for `nonce` approves the sign-in waiting under `user_code`.
    public struct DeviceApprovalRequest: WireCall, Equatable {
        public typealias Answer = Wire.Empty
        public static let endpoint = Endpoint(.post, "/mock-idp/device", isDev: true)
        public var userCode: String
        public var idToken: String
        public var nonce: String
        enum CodingKeys: String, CodingKey { case userCode = "user_code", idToken = "id_token", nonce }
        public init(userCode: String, idToken: String, nonce: String) {
            (self.userCode, self.idToken, self.nonce) = (userCode, idToken, nonce)
        }
    }

    public struct ProfileRequest: WireCall, Equatable {
        public typealias Answer = Profile
        public static let endpoint = Endpoint(.put, "/user/profile", needsSession: true)
        public var fields: [String: FieldValue]
        public init(fields: [String: FieldValue]) { self.fields = fields }
    }

    public struct ChildRequest: WireCall, Equatable {
        public typealias Answer = Child
        public static let endpoint = Endpoint(.post, "/children", needsSession: true)
        public var name: String
        public var birthDate: String?
        enum CodingKeys: String, CodingKey { case name, birthDate = "birth_date" }
        public init(name: String, birthDate: String?) { (self.name, self.birthDate) = (name, birthDate) }
    }

    public struct InviteRequest: WireCall, Equatable {
        public typealias Answer = Invite
        public static let endpoint = Endpoint(.post, "/invites", needsSession: true)
        public var childID: String
        enum CodingKeys: String, CodingKey { case childID = "child_id" }
        public init(childID: String) { self.childID = childID }
    }

    public struct AcceptRequest: WireCall, Equatable {
        public typealias Answer = InviteAcceptance
        public static let endpoint = Endpoint(.post, "/invites/accept", needsSession: true)
        public var code: String
        public init(code: String) { self.code = code }
    }

    /// `PUT /records/{key}`: the key is the path's, the value the body's.
    public struct RecordRequest: WireCall, Equatable {
        public typealias Answer = Wire.Empty
        public static let endpoint = Endpoint(.put, "/records/:key", needsSession: true)
        public var pathParameter: String? {
            get { key }
            set { key = newValue ?? "" }
        }
        public var key = ""
        public var value: FieldValue
        enum CodingKeys: String, CodingKey { case value }
        public init(key: String, value: FieldValue) { (self.key, self.value) = (key, value) }
    }

    /// `POST /records/{key}/items`: one item added to the list kept under the key, by the
    /// service in one step, so two devices adding at once both keep theirs (a list read,
    /// appended and written back loses one). An item already in the list is not added
    /// again, so a retry adds nothing twice. The answer is the list as it is now.
    public struct RecordItemRequest: WireCall, Equatable {
        public typealias Answer = Wire.RecordItems
        public static let endpoint = Endpoint(.post, "/records/:key/items", needsSession: true)
        public var pathParameter: String? {
            get { key }
            set { key = newValue ?? "" }
        }
        public var key = ""
        public var item: String
        enum CodingKeys: String, CodingKey { case item }
        public init(key: String, item: String) { (self.key, self.item) = (key, item) }
    }

    /// `--dev`: the QA clock's offset, asked for and as set.
    public struct ClockRequest: WireCall, Equatable {
        public typealias Answer = Wire.ClockRequest
        public static let endpoint = Endpoint(.post, "/dev/clock", isDev: true)
        public var offsetSeconds: Int64
        enum CodingKeys: String, CodingKey { case offsetSeconds = "offset_seconds" }
        public init(offsetSeconds: Int64) { self.offsetSeconds = offsetSeconds }
    }

    /// `--dev`: the server's faults by name, asked for and as set.
    public struct FaultsRequest: WireCall, Equatable {
        public typealias Answer = Wire.FaultsRequest
        public static let endpoint = Endpoint(.post, "/dev/faults", isDev: true)
        public var faults: [String]
        public init(faults: [String]) { self.faults = faults }
    }

    /// `--dev`: remote-config values to serve instead of the defaults (any JSON object).
    public struct ConfigOverride: WireCall, Equatable {
        public typealias Answer = [String: FieldValue]
        public static let endpoint = Endpoint(.post, "/dev/config", isDev: true)
        public var values: [String: FieldValue]
        public init(values: [String: FieldValue]) { self.values = values }
        public init(from decoder: any Decoder) throws { values = try [String: FieldValue](from: decoder) }
        public func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
    }
}
