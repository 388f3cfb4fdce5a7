import ServiceAPI

/// Tunable rules of the service, with documented defaults. Demo hosts and load tests send
/// many users from one address, so every threshold can be changed.
public struct ServiceSettings: Sendable, Equatable {
    /// bcrypt cost: 10 is OWASP's floor and about 60 ms a hash on a 2-core machine.
    public var bcryptCost = 10
    /// Seconds a rotated refresh token still works, so a lost reply or two terminals
    /// sharing a session never log the user out. Reuse after this revokes the family.
    public var refreshGrace: Int64 = 10
    /// Sign-in attempts (anonymous, register, login) per client address.
    public var signInPerAddress = RateLimit(limit: 60, window: 60)
    /// Failed logins per account (email), against password guessing.
    public var loginFailuresPerAccount = RateLimit(limit: 10, window: 900)
    /// SMS codes sent per client address, against SMS pumping.
    public var smsPerAddress = RateLimit(limit: 10, window: 3600)
    /// Invite redemptions tried per client address and per account.
    public var invitesPerAddress = RateLimit(limit: 20, window: 3600)
    /// How long an SMS code lives, the wait before another can be sent, and tries per code.
    public var smsCodeLifetime: Int64 = 300
    public var smsResendAfter: Int64 = 60
    public var smsAttempts = 5
    /// How long an invite link stays valid.
    public var inviteLifetime: Int64 = 7 * 86_400
    /// Whether codes are also kept in plain text in the outbox (the mock and `--dev`).
    public var keepsOutbox = true
    /// Whether the mock identity provider signs ID tokens and social sign-in accepts
    /// them (the embedded mock and `--dev`). Without it no provider is configured, and
    /// social sign-in is refused: anyone could otherwise mint a token for any account.
    public var mockIdentityProvider = true
    /// Providers whose sign-in onboard-server brokers in a browser (OpenID Connect, its
    /// `--identity-providers` file or `--dev`'s development provider): a device sign-in
    /// with one of them may start.
    public var brokeredProviders: Set<String> = []
    /// A device authorization (RFC 8628): how long its codes live, the seconds between
    /// polls, and user codes tried on the verification page per client address.
    public var deviceCodeLifetime: Int64 = 600
    public var devicePollInterval: Int64 = 5
    public var userCodeAttemptsPerAddress = RateLimit(limit: 20, window: 600)
    /// Wrong admin tokens per client address, counted durably like failed log-ins.
    public var adminFailuresPerAddress = RateLimit(limit: 10, window: 900)
    /// Analytics batches per client address (a client sends one every few seconds at
    /// most; many share an address behind NAT), and how long an event is kept
    /// (`--events-retention`; 90 days).
    public var eventBatchesPerAddress = RateLimit(limit: 600, window: 60)
    /// Sized to what real clients send (a batch of at most 100 events every 10 seconds
    /// while a person is on screen; a whole run is tens of events), so one address cannot
    /// fill the store: events and bytes per address an hour, events per device run
    /// (anonymous id) an hour, events store-wide an hour, withdrawals per address an hour.
    public var eventsPerAddress = RateLimit(limit: 20_000, window: 3600)
    public var eventBytesPerAddress = RateLimit(limit: 16 << 20, window: 3600)
    public var eventsPerRun = RateLimit(limit: 2_000, window: 3600)
    public var eventsStoreWide = RateLimit(limit: 2_000_000, window: 3600)
    public var forgetsPerAddress = RateLimit(limit: 60, window: 3600)
    public var eventsRetention: Int64 = 90 * 86_400

    public init() {}
}

/// At most `limit` events per `window` seconds.
public struct RateLimit: Sendable, Equatable, Codable {
    public var limit: Int
    public var window: Int64

    public init(limit: Int, window: Int64) {
        self.limit = limit
        self.window = window
    }
}
