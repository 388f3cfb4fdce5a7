/// What the client and `onboard-mock` (the embedded mock in a process of its own) say to
/// each other: one JSON object per line over a socket pair. The calls are the same `Wire`
/// bodies the HTTP transport sends; only the envelope differs, carrying what HTTP carries
/// in its request line and headers.
public enum MockHelperFrame {
    /// The client's first line: which file to open, and the key its personal columns are
    /// sealed with (the state folder's, derived by the client; nil for a shared file).
    public struct Opening: Codable, Sendable {
        public var path: String
        /// The sealing key's 32 bytes, base64; never on the command line, where `ps` shows it.
        public var sealingKey: String?

        public init(path: String, sealingKey: String?) {
            (self.path, self.sealingKey) = (path, sealingKey)
        }
    }

    /// The helper's first line: the file is open, or why not. A damaged file is set aside
    /// and said (`warning`); one sealed with a key this folder no longer has is set aside
    /// too (`lostAs`: the name it was kept under).
    public struct Opened: Codable, Sendable {
        public var failure: ServiceError?
        public var warning: String?
        public var lostAs: String?

        public init(failure: ServiceError? = nil, warning: String? = nil, lostAs: String? = nil) {
            (self.failure, self.warning, self.lostAs) = (failure, warning, lostAs)
        }
    }

    /// One call. `id` pairs it with its reply: calls overlap (a delivery beside a sign-in).
    public struct Request: Codable, Sendable {
        public var id: Int
        /// `POST /auth/register`: the endpoint as the OpenAPI document names it.
        public var endpoint: String
        /// The call's `Wire` body as JSON text.
        public var body: String
        /// The path's `:name` part, which a call keeps apart from its body.
        public var parameter: String?
        public var bearer: String?
        public var idempotencyKey: String?
        public var idempotencyProof: String?
        public var deviceToken: String?
        /// The client's clock offset (`--clock-offset`, the QA console), the mock's too.
        public var clockOffsetSeconds: Int64

        public init(
            id: Int, endpoint: String, body: String, parameter: String?, bearer: String?, idempotencyKey: String?,
            idempotencyProof: String?,
            deviceToken: String?, clockOffsetSeconds: Int64
        ) {
            (self.id, self.endpoint, self.body, self.parameter, self.bearer) = (id, endpoint, body, parameter, bearer)
            (self.idempotencyKey, self.idempotencyProof, self.deviceToken, self.clockOffsetSeconds) =
                (idempotencyKey, idempotencyProof, deviceToken, clockOffsetSeconds)
        }
    }

    /// A call's answer as JSON text, or the service's refusal.
    public struct Reply: Codable, Sendable {
        public var id: Int
        public var answer: String?
        public var failure: ServiceError?

        public init(id: Int, answer: String? = nil, failure: ServiceError? = nil) {
            (self.id, self.answer, self.failure) = (id, answer, failure)
        }
    }

    /// `onboard funnel` on the embedded mock: the report an operator gets from a server's
    /// `/admin/funnel`, asked of the folder's own mock (whose file is the person's).
    public struct FunnelQuery: WireCall {
        public typealias Answer = FunnelReport
        public static var endpoint: Endpoint { .adminFunnel }
        public var flow: String
        /// Milliseconds since 1970.
        public var since: Int64
        public var byVersion: Bool

        public init(flow: String, since: Int64, byVersion: Bool) {
            (self.flow, self.since, self.byVersion) = (flow, since, byVersion)
        }
    }

    /// Every call the helper answers, by the name a request gives: what a client sends,
    /// and the funnel (the QA controls other than the outbox are the client's own, as in
    /// process).
    public static let calls: [String: any WireCall.Type] = Dictionary(
        uniqueKeysWithValues: (Wire.allCalls + [FunnelQuery.self]).map { ($0.endpoint.documented, $0) })
}
