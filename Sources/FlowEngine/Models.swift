/// A value in the flow context: text, or a list (such as the offered names).
public enum Value: Codable, Equatable, Sendable {
    case text(String)
    case list([String])

    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    public var list: [String]? {
        if case .list(let list) = self { return list }
        return nil
    }

    /// Plain JSON: a string or an array of strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .list(try container.decode([String].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .list(let list): try container.encode(list)
        }
    }
}

/// The client's session with the service. Times are seconds since 1970.
public struct Session: Codable, Equatable, Sendable {
    public var userID: String
    public var accessToken: String
    public var accessExpiresAt: Int64
    public var refreshToken: String
    /// nil: the refresh token does not expire (anonymous guests).
    public var refreshExpiresAt: Int64?
    public var isAnonymous: Bool
    /// The service's own creation time, never the device's.
    public var createdAt: Int64
    public var lastAuthenticated: Int64
    public var onboardingComplete: Bool
    /// The device's clock minus the service's, in seconds, measured when the tokens
    /// arrived (nil: not measured, taken as 0). Expiry is judged on the service's clock,
    /// so a device whose clock runs a day fast renews once, not in a loop.
    public var clockSkew: Int64?
    /// A guest made on this device while the service could not be reached: the
    /// idempotency key its first launch sent, under which it is registered once the
    /// service answers (the same guest, had that first call made it after all). nil for
    /// a session the service issued.
    public var registrationKey: String?

    public init(
        userID: String, accessToken: String, accessExpiresAt: Int64, refreshToken: String,
        refreshExpiresAt: Int64?, isAnonymous: Bool, createdAt: Int64, lastAuthenticated: Int64,
        onboardingComplete: Bool = false
    ) {
        self.userID = userID
        self.accessToken = accessToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
        self.isAnonymous = isAnonymous
        self.createdAt = createdAt
        self.lastAuthenticated = lastAuthenticated
        self.onboardingComplete = onboardingComplete
    }

    /// A guest known only to this device: no tokens, nothing to renew, until the runner
    /// registers it under `registrationKey`.
    public static func onThisDevice(userID: String, registrationKey: String, now: Int64) -> Session {
        var session = Session(
            userID: userID, accessToken: "", accessExpiresAt: .max, refreshToken: "", refreshExpiresAt: nil,
            isAnonymous: true, createdAt: now / 1000, lastAuthenticated: now / 1000)
        session.registrationKey = registrationKey
        return session
    }

    public var isOnThisDeviceOnly: Bool { registrationKey != nil }

    /// The service's time (seconds) at the device's `now` (ms).
    public func serviceSeconds(atMilliseconds now: Int64) -> Int64 {
        now / 1000 - (clockSkew ?? 0)
    }

    public func accessExpired(atMilliseconds now: Int64) -> Bool {
        serviceSeconds(atMilliseconds: now) >= accessExpiresAt
    }
}

/// Where a relaunch picks up: the last resume point and the context gathered so far.
public struct SavedProgress: Codable, Equatable, Sendable {
    public var screen: String
    /// Never holds passwords or codes.
    public var context: [String: Value]
    public var onboardingComplete: Bool
    /// When onboarding started (ms), for `duration_ms`.
    public var startedAt: Int64?
    /// Stands for the user in analytics until the service assigns an id.
    public var placeholderUserID: String
    /// Whether the resume point was reached with a session (it needs one to continue).
    public var requiresSession: Bool
    /// The screens Back returns through from `screen`, oldest first: a relaunch goes back
    /// where the run before it would have. Empty in files from before it was kept.
    public var history: [String]

    public init(
        screen: String, context: [String: Value], onboardingComplete: Bool, startedAt: Int64?,
        placeholderUserID: String, requiresSession: Bool, history: [String] = []
    ) {
        self.screen = screen
        self.context = context
        self.onboardingComplete = onboardingComplete
        self.startedAt = startedAt
        self.placeholderUserID = placeholderUserID
        self.requiresSession = requiresSession
        self.history = history
    }

    private enum CodingKeys: String, CodingKey {
        case screen, context, onboardingComplete, startedAt, placeholderUserID, requiresSession, history
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        screen = try container.decode(String.self, forKey: .screen)
        context = try container.decode([String: Value].self, forKey: .context)
        onboardingComplete = try container.decode(Bool.self, forKey: .onboardingComplete)
        startedAt = try container.decodeIfPresent(Int64.self, forKey: .startedAt)
        placeholderUserID = try container.decode(String.self, forKey: .placeholderUserID)
        requiresSession = try container.decode(Bool.self, forKey: .requiresSession)
        history = try container.decodeIfPresent([String].self, forKey: .history) ?? []
    }
}
