/// The calls of `/api/v1` that send no body (GETs, and `--dev`'s reset), every call
/// listed once for the tests that hold them to the document, and the small answers.
extension Wire {
    // MARK: Calls without a body (GET, and --dev's reset)

    public struct HealthCall: WireCall, Equatable {
        public typealias Answer = Wire.Health
        public static let endpoint = Endpoint(.get, "/health")
        public init() {}
    }
    public struct AppConfigCall: WireCall, Equatable {
        public typealias Answer = [String: FieldValue]
        public static let endpoint = Endpoint(.get, "/app/config")
        public init() {}
    }
    public struct ProfileCall: WireCall, Equatable {
        public typealias Answer = Profile
        public static let endpoint = Endpoint(.get, "/user/profile", needsSession: true)
        public init() {}
    }
    public struct ChildrenCall: WireCall, Equatable {
        public typealias Answer = [Child]
        public static let endpoint = Endpoint(.get, "/children", needsSession: true)
        public init() {}
    }
    public struct RecordsCall: WireCall, Equatable {
        public typealias Answer = [String: FieldValue]
        public static let endpoint = Endpoint(.get, "/records", needsSession: true)
        public init() {}
    }
    public struct MotivationCall: WireCall, Equatable {
        public typealias Answer = Wire.Message
        public static let endpoint = Endpoint(.get, "/content/motivation/random", needsSession: true)
        public init() {}
    }
    /// `GET /content/{kind}`.
    public struct ContentCall: WireCall, Equatable {
        public typealias Answer = [ContentEntry]
        public static let endpoint = Endpoint(.get, "/content/:kind", needsSession: true)
        public var pathParameter: String? {
            get { kind }
            set { kind = newValue ?? "" }
        }
        public var kind = ""
        enum CodingKeys: CodingKey {}
        public init(kind: String) { self.kind = kind }
    }
    public struct OutboxCall: WireCall, Equatable {
        public typealias Answer = [OutboxEntry]
        public static let endpoint = Endpoint(.get, "/dev/outbox", isDev: true)
        public init() {}
    }
    public struct ResetCall: WireCall, Equatable {
        public typealias Answer = Wire.Empty
        public static let endpoint = Endpoint(.post, "/dev/reset", isDev: true)
        public init() {}
    }

    /// Every call, in the order the document lists them: the server routes each (the
    /// service serves the clients' calls, `--dev` adds the QA controls).
    public static let allCalls: [any WireCall.Type] = [
        HealthCall.self, AppConfigCall.self, FlowRequest.self, RegisterRequest.self, LoginRequest.self, LinkEmailRequest.self,
        RefreshRequest.self, LogoutRequest.self, PhoneRequest.self, PhoneVerifyRequest.self, SocialRequest.self, IdentityTokenRequest.self,
        DeviceAuthorizationRequest.self, DeviceTokenRequest.self, DeviceWithdrawalRequest.self, DeviceApprovalRequest.self,
        ProfileCall.self, ProfileRequest.self, NameRequest.self, ChildrenCall.self, ChildRequest.self, InviteRequest.self,
        AcceptRequest.self, RecordsCall.self, RecordRequest.self, RecordItemRequest.self, MotivationCall.self, ContentCall.self,
        EventsRequest.self, ForgetEventsRequest.self,
        OutboxCall.self, ResetCall.self, ConfigOverride.self, ClockRequest.self, FaultsRequest.self,
    ]

    // MARK: Answers

    public struct Health: Codable, Sendable, Equatable {
        public var status: String
        public init(status: String) { self.status = status }
    }

    /// A list record as the service holds it, after an item was added.
    public struct RecordItems: Codable, Sendable, Equatable {
        public var items: [String]
        public init(items: [String]) { self.items = items }
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
