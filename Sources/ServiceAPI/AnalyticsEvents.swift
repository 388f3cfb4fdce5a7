/// Analytics as they travel: each event as the client recorded it (its id made then, so a
/// batch sent twice is stored once), a batch of them, and a withdrawal of consent.
public struct AnalyticsEvent: Codable, Sendable, Equatable {
    /// A UUID made when the event was recorded: the service keeps the first copy.
    public var id: String
    public var event: String
    public var flow: String
    /// The screen the person was on.
    public var screen: String?
    /// The spec's `user_id`: the service's id, or the device's placeholder before one.
    public var userID: String
    /// The device's placeholder for the run: one person from first screen to last.
    public var anonymousID: String
    /// RFC 3339 in UTC with milliseconds, by the client's clock.
    public var timestamp: String
    public var appVersion: String
    /// `duration_ms`, `error_code`, `attempt_number`, `step`, `screen_index`, the flow's
    /// breakdown key: never a personal value (the engine records none).
    public var properties: [String: FieldValue]

    enum CodingKeys: String, CodingKey {
        case id, event, flow, screen, timestamp, properties
        case userID = "user_id", anonymousID = "anonymous_id", appVersion = "app_version"
    }

    public init(
        id: String, event: String, flow: String, screen: String?, userID: String, anonymousID: String, timestamp: String,
        appVersion: String,
        properties: [String: FieldValue]
    ) {
        (self.id, self.event, self.flow, self.screen, self.userID, self.anonymousID) = (id, event, flow, screen, userID, anonymousID)
        (self.timestamp, self.appVersion, self.properties) = (timestamp, appVersion, properties)
    }
}

extension Wire {
    /// Up to `maximumEvents` events; each stored once however often it is sent.
    public struct EventsRequest: WireCall, Equatable {
        public typealias Answer = Wire.EventsStored
        public static let endpoint = Endpoint(.post, "/events")
        public static let maximumEvents = 100
        public var events: [AnalyticsEvent]
        public init(events: [AnalyticsEvent]) { self.events = events }
    }

    public struct EventsStored: Codable, Sendable, Equatable {
        /// New to the service.
        public var stored: Int
        /// Sent before (a retry after a lost answer): already kept, not counted twice.
        public var duplicates: Int
        public init(stored: Int, duplicates: Int) { (self.stored, self.duplicates) = (stored, duplicates) }
    }

    /// Consent withdrawn: what the service holds under this device's placeholder goes,
    /// and with a session's bearer token, what it holds under that account too.
    public struct ForgetEventsRequest: WireCall, Equatable {
        public typealias Answer = Wire.EventsForgotten
        public static let endpoint = Endpoint(.post, "/events/forget")
        public var anonymousID: String
        enum CodingKeys: String, CodingKey { case anonymousID = "anonymous_id" }
        public init(anonymousID: String) { self.anonymousID = anonymousID }
    }

    public struct EventsForgotten: Codable, Sendable, Equatable {
        public var deleted: Int
        public init(deleted: Int) { self.deleted = deleted }
    }
}

extension AuthService {
    public func recordEvents(_ events: [AnalyticsEvent]) async throws -> Wire.EventsStored {
        try await send(Wire.EventsRequest(events: events), bearer: nil)
    }
    /// `accessToken`: the signed-in account's, so its events go too.
    public func forgetEvents(anonymousID: String, accessToken: String?) async throws -> Wire.EventsForgotten {
        try await send(Wire.ForgetEventsRequest(anonymousID: anonymousID), bearer: accessToken)
    }
}
