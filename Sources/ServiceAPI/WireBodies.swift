/// The JSON bodies of `/api/v1`, declared once: the HTTP transport encodes them, the
/// server's routes decode them, and a test holds each to its schema of the same name in
/// `openapi.yaml` (`#/components/schemas/…`). Answers that are models of their own
/// (`IssuedSession`, `Profile`, …) live beside those models.
public enum Wire {
    public struct FlowRequest: Codable, Sendable, Equatable {
        /// A flow's id: the service picks its guests' token lifetimes by it.
        public var flow: String?
        public init(flow: String?) { self.flow = flow }
    }

    public struct NameRequest: Codable, Sendable, Equatable {
        public var name: String
        public init(name: String) { self.name = name }
    }

    public struct RegisterRequest: Codable, Sendable, Equatable {
        public var flow: String?
        public var name: String
        public var email: String
        public var password: String
        public init(flow: String?, name: String, email: String, password: String) {
            (self.flow, self.name, self.email, self.password) = (flow, name, email, password)
        }
    }

    /// A log-in, and the email and password linked to a guest.
    public struct LoginRequest: Codable, Sendable, Equatable {
        public var flow: String?
        public var email: String
        public var password: String
        public init(flow: String?, email: String, password: String) {
            (self.flow, self.email, self.password) = (flow, email, password)
        }
    }

    /// A refresh, and a log-out.
    public struct RefreshRequest: Codable, Sendable, Equatable {
        public var refreshToken: String
        enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
        public init(refreshToken: String) { self.refreshToken = refreshToken }
    }

    public struct PhoneRequest: Codable, Sendable, Equatable {
        public var phone: String
        public init(phone: String) { self.phone = phone }
    }

    public struct PhoneVerifyRequest: Codable, Sendable, Equatable {
        public var flow: String?
        public var phone: String
        public var code: String
        public init(flow: String?, phone: String, code: String) {
            (self.flow, self.phone, self.code) = (flow, phone, code)
        }
    }

    public struct IdentityTokenRequest: Codable, Sendable, Equatable {
        public var provider: String
        public var account: String
        public var audience: String
        public var nonce: String
        public init(provider: String, account: String, audience: String, nonce: String) {
            (self.provider, self.account, self.audience, self.nonce) = (provider, account, audience, nonce)
        }
    }

    public struct SocialRequest: Codable, Sendable, Equatable {
        public var flow: String?
        public var provider: String
        public var idToken: String
        public var nonce: String?
        enum CodingKeys: String, CodingKey { case flow, provider, idToken = "id_token", nonce }
        public init(flow: String?, provider: String, idToken: String, nonce: String?) {
            (self.flow, self.provider, self.idToken, self.nonce) = (flow, provider, idToken, nonce)
        }
    }

    public struct ProfileRequest: Codable, Sendable, Equatable {
        public var fields: [String: FieldValue]
        public init(fields: [String: FieldValue]) { self.fields = fields }
    }

    public struct ChildRequest: Codable, Sendable, Equatable {
        public var name: String
        public var birthDate: String?
        enum CodingKeys: String, CodingKey { case name, birthDate = "birth_date" }
        public init(name: String, birthDate: String?) { (self.name, self.birthDate) = (name, birthDate) }
    }

    public struct InviteRequest: Codable, Sendable, Equatable {
        public var childID: String
        enum CodingKeys: String, CodingKey { case childID = "child_id" }
        public init(childID: String) { self.childID = childID }
    }

    public struct AcceptRequest: Codable, Sendable, Equatable {
        public var code: String
        public init(code: String) { self.code = code }
    }

    public struct RecordRequest: Codable, Sendable, Equatable {
        public var value: FieldValue
        public init(value: FieldValue) { self.value = value }
    }

    /// `--dev`: the QA clock's offset, asked for and as set.
    public struct ClockRequest: Codable, Sendable, Equatable {
        public var offsetSeconds: Int64
        enum CodingKeys: String, CodingKey { case offsetSeconds = "offset_seconds" }
        public init(offsetSeconds: Int64) { self.offsetSeconds = offsetSeconds }
    }

    /// `--dev`: the server's faults by name, asked for and as set.
    public struct FaultsRequest: Codable, Sendable, Equatable {
        public var faults: [String]
        public init(faults: [String]) { self.faults = faults }
    }

    // MARK: Answers

    public struct Health: Codable, Sendable, Equatable {
        public var status: String
        public init(status: String) { self.status = status }
    }

    /// `/content/motivation/random`.
    public struct Message: Codable, Sendable, Equatable {
        public var message: String
        public init(message: String) { self.message = message }
    }

    /// The mock identity provider's signed token.
    public struct IdentityToken: Codable, Sendable, Equatable {
        public var idToken: String
        enum CodingKeys: String, CodingKey { case idToken = "id_token" }
        public init(idToken: String) { self.idToken = idToken }
    }

    /// An answer with nothing to say: `{}`.
    public struct Empty: Codable, Sendable, Equatable {
        public init() {}
    }
}
