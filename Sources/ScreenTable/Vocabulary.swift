import ServiceAPI

/// The fixed vocabulary a flow file may name. The behaviour behind each word is Swift;
/// the table only names it, and the linter rejects any other word.
public enum Operation: String, Sendable, CaseIterable {
    /// Checks the service answers.
    case health
    /// Creates an anonymous account; fills `user_id` and `name_options`.
    case signInAnonymously = "sign_in_anonymously"
    /// Finalises the anonymous profile with `chosen_name`; fills `display_name`.
    case chooseName = "choose_name"
    /// Renews the session with its refresh token.
    case refreshSession = "refresh_session"
    /// A random motivational message; fills `motivation`.
    case motivation
    /// The account and its records; fills `email`, `username`, `account_status`, `pro`,
    /// `rucks`.
    case loadAccount = "load_account"
    /// Appends a ruck (`distance_km`, `duration_min`) to the account's records; fills `rucks`.
    case logRuck = "log_ruck"
    /// Adds `email` and `password` to the guest account, keeping its user id.
    case linkEmail = "link_email"
    /// Logs in with `email` and `password`.
    case logIn = "log_in"
    /// Ends a named session and starts a new guest one at once.
    case signOut = "sign_out"
    /// A simulated purchase, recorded by the service as the account's entitlement.
    case purchasePro = "purchase_pro"
    /// Sets the account's `username` (its display name).
    case setUsername = "set_username"
    /// Checks the service at `server_url` answers (`GET /api/v1/health`).
    case connectServer = "connect_server"
    /// Creates an account from `name`, `email`, `password`.
    case register
    /// Redeems `invite_code` (a raw code or a whole share link); fills `child_name`,
    /// `shared_by`, `children`.
    case acceptInvite = "accept_invite"
    /// The account's children; fills `children`.
    case loadChildren = "load_children"
    /// Adds `baby_name`, born `birth_date`; fills `children`.
    case addChild = "add_child"
    /// An invite code for the first child; fills `invite_code_created`, `invite_link`.
    case createInvite = "create_invite"
    /// Texts a 6-digit code to `country` + `phone`; fills `phone_e164`.
    case sendPhoneCode = "send_phone_code"
    /// Signs in with `phone_e164` and `sms_code`; fills `profile_complete` and the profile.
    case verifyPhoneCode = "verify_phone_code"
    /// Asks the mock identity provider for `provider` to sign an ID token for
    /// `social_account` (with a fresh nonce), then signs in with it; fills
    /// `profile_complete` and the profile.
    case socialSignIn = "social_sign_in"
    /// Starts a sign-in with `provider` approved in a browser (RFC 8628); fills
    /// `user_code`, `verification_uri`, `verification_uri_complete`, `device_code` (this
    /// device's secret), `poll_interval` (seconds) and `device_expires_at` (ms, this
    /// device's clock).
    case startSocialDevice = "start_social_device"
    /// Asks once whether the sign-in of `device_code` was approved: the session and the
    /// profile once it is (`device_code` then forgotten); `authorization_pending`,
    /// `slow_down`, `access_denied` or `expired_token` until then.
    case pollSocialDevice = "poll_social_device"
    /// Gives the sign-in of `device_code` up: the service withdraws the code, so it can
    /// no longer be approved in a browser. A poll's `withdraw:` (the screen left).
    case withdrawSocialDevice = "withdraw_social_device"
    /// The embedded mock's approval of the sign-in under `user_code` as `social_account`
    /// (the mock provider's ID token, as a browser's approval would give), then the poll
    /// that gets the session.
    case approveSocialDevice = "approve_social_device"
    /// Opens `verification_uri_complete` in this person's browser; fails where none can
    /// be opened (an SSH session, no desktop): `browser` says which beforehand.
    case openBrowser = "open_browser"
    /// The signed-in user's profile as the service holds it; fills `profile_complete` and
    /// the profile's fields (where a relaunch that lost its progress stands).
    case loadProfile = "load_profile"
    /// Saves the fields of the screen it is called from to the signed-in user's profile.
    case saveProfile = "save_profile"
    /// As `save_profile`, and marks the profile complete.
    case finishProfile = "finish_profile"
    /// Ends the session at the service (best effort offline) and forgets everything this
    /// flow kept on this device.
    case logOut = "log_out"
    /// Opens this flow's local store on the device (MIGA's content cache).
    case prepareStore = "prepare_store"
    /// Reads remote config, checking each value; a bad or missing one takes its default.
    /// Fills `content_sync_enabled`, `onboarding_flow_version`.
    case fetchConfig = "fetch_config"
    /// Caches 10-20 mindfulness entries from the service, or the bundled ones offline.
    case preloadContent = "preload_content"
    /// Which social apps can be gated and which unlock method the device has (simulated,
    /// `onboard --simulate`); fills `supported_apps`, `biometrics`.
    case checkCompatibility = "check_compatibility"
    /// Checks the chosen apps are hidden (simulated, `onboard --simulate hiding=fail`).
    case validateHiding = "validate_hiding"
    /// The hub's streak, banner and summary of the choices made; fills `streak_day`,
    /// `hub_since` (the streak's first day), `hub_last` (the last day opened), `banner`,
    /// `hub_summary`.
    case openHub = "open_hub"

    /// Context keys the operation reads.
    public var inputs: [String] { traits.inputs }

    /// Context keys the operation fills with what the device reports, and the values each
    /// can take: QA picks one with `onboard --simulate KEY=VALUE`.
    public var deviceReports: [String: [String]] { traits.deviceReports }

    /// Context lists the operation reads.
    public var listInputs: [String] { traits.listInputs }

    /// Whether the operation needs a signed-in session.
    public var needsSession: Bool { traits.session == .required }

    /// Sends the session's access token (renewing it is the engine's, before and after).
    public var usesSession: Bool { needsSession && self != .refreshSession }

    /// Calls that create something (an account, a guest, a child, an invite, a ruck) or spend
    /// something single-use (a code, an invite, an ID token): sent with an idempotency
    /// key, so a retry never makes a second one.
    public var createsOrSpends: Bool { traits.effect == .createsOrSpends }
}

/// What the engine and the runner must know of an operation, said once per operation in
/// one switch with no `default:` (issue 33): a new operation does not compile until it
/// says whether it needs a session and whether a retry could make a second something.
public struct OperationTraits: Sendable, Equatable {
    public enum SessionNeed: Sendable, Equatable { case required, none }
    public enum Effect: Sendable, Equatable {
        /// Creates or spends something: sent with an idempotency key.
        case createsOrSpends
        /// Reads, or changes in place: safe to send again.
        case repeatable
    }

    public var session: SessionNeed
    public var effect: Effect
    public var inputs: [String] = []
    public var listInputs: [String] = []
    /// What the device reports into the context, and the values it can have (a flow's
    /// guards and the coverage map read them).
    public var deviceReports: [String: [String]] = [:]

    public init(
        session: SessionNeed, effect: Effect, inputs: [String] = [], listInputs: [String] = [], deviceReports: [String: [String]] = [:]
    ) {
        self.session = session
        self.effect = effect
        self.inputs = inputs
        self.listInputs = listInputs
        self.deviceReports = deviceReports
    }
}

extension Operation {
    public var traits: OperationTraits {
        switch self {
        case .health: OperationTraits(session: .none, effect: .repeatable)
        case .signInAnonymously: OperationTraits(session: .none, effect: .createsOrSpends)
        case .chooseName: OperationTraits(session: .required, effect: .repeatable, inputs: ["chosen_name"])
        case .refreshSession: OperationTraits(session: .required, effect: .repeatable)
        case .motivation: OperationTraits(session: .required, effect: .repeatable)
        case .loadAccount: OperationTraits(session: .required, effect: .repeatable)
        // What the list shows already, for a ruck kept on this device while offline.
        case .logRuck:
            OperationTraits(session: .required, effect: .createsOrSpends, inputs: ["distance_km", "duration_min"], listInputs: ["rucks"])
        case .linkEmail: OperationTraits(session: .required, effect: .createsOrSpends, inputs: ["email", "password"])
        case .logIn: OperationTraits(session: .none, effect: .repeatable, inputs: ["email", "password", "bring_rucks"])
        case .signOut: OperationTraits(session: .required, effect: .createsOrSpends)
        case .purchasePro: OperationTraits(session: .required, effect: .repeatable)
        case .setUsername: OperationTraits(session: .required, effect: .repeatable, inputs: ["username"])
        case .connectServer: OperationTraits(session: .none, effect: .repeatable, inputs: ["server_url"])
        case .register: OperationTraits(session: .none, effect: .createsOrSpends, inputs: ["name", "email", "password"])
        case .acceptInvite: OperationTraits(session: .required, effect: .createsOrSpends, inputs: ["invite_code"])
        case .loadChildren: OperationTraits(session: .required, effect: .repeatable)
        case .addChild: OperationTraits(session: .required, effect: .createsOrSpends, inputs: ["baby_name", "birth_date"])
        case .createInvite: OperationTraits(session: .required, effect: .createsOrSpends)
        case .sendPhoneCode: OperationTraits(session: .none, effect: .createsOrSpends, inputs: ["country", "phone"])
        case .verifyPhoneCode: OperationTraits(session: .none, effect: .createsOrSpends, inputs: ["phone_e164", "sms_code"])
        case .socialSignIn: OperationTraits(session: .none, effect: .createsOrSpends, inputs: ["provider", "social_account"])
        // The grant is single use on the service's side: no idempotency key needed.
        case .startSocialDevice:
            OperationTraits(session: .none, effect: .repeatable, inputs: ["provider"], deviceReports: ["browser": ["yes", "no"]])
        case .pollSocialDevice: OperationTraits(session: .none, effect: .repeatable, inputs: ["device_code"])
        case .withdrawSocialDevice: OperationTraits(session: .none, effect: .repeatable, inputs: ["device_code"])
        // The grant is spent by the poll that follows; approving twice is refused.
        case .approveSocialDevice:
            OperationTraits(
                session: .none, effect: .repeatable, inputs: ["provider", "social_account", "user_code", "device_code"])
        case .openBrowser: OperationTraits(session: .none, effect: .repeatable, inputs: ["verification_uri_complete"])
        case .loadProfile: OperationTraits(session: .required, effect: .repeatable)
        case .saveProfile: OperationTraits(session: .required, effect: .repeatable)
        case .finishProfile: OperationTraits(session: .required, effect: .repeatable)
        case .logOut: OperationTraits(session: .required, effect: .repeatable)
        case .prepareStore: OperationTraits(session: .none, effect: .repeatable)
        case .fetchConfig: OperationTraits(session: .none, effect: .repeatable)
        case .preloadContent: OperationTraits(session: .none, effect: .repeatable)
        case .checkCompatibility:
            OperationTraits(
                session: .none, effect: .repeatable, deviceReports: ["biometrics": ["face_id", "touch_id", "passcode", "none"]])
        case .validateHiding: OperationTraits(session: .none, effect: .repeatable)
        // MIGA's hub makes the guest a setup offline could not.
        case .openHub:
            OperationTraits(
                session: .none, effect: .createsOrSpends, inputs: ["hub_since", "hub_last", "readiness", "setup_mode"],
                listInputs: ["interests", "apps"])
        }
    }
}

/// Predicates over the session and context that actions and branches may test.
public struct Guard: Sendable, Equatable {
    public enum Name: String, Sendable, CaseIterable {
        /// The session is a guest's.
        case isAnonymous = "is_anonymous"
        /// The session belongs to a named account.
        case isSignedIn = "is_signed_in"
        /// The account has Pro (`pro` is `true` in the context).
        case hasPro = "has_pro"
        /// The account has children (`children` is a non-empty list).
        case hasChildren = "has_children"
        /// The profile was finished before (`profile_complete` is `true`).
        case profileComplete = "profile_complete"
        /// A context value is exactly some text: `biometrics == face_id`.
        case equals = "=="
        /// A context value is there and not empty: `has display_name`.
        case has
    }

    public var name: Name
    public var negated: Bool
    /// For `equals`: the context key and the text it must hold; for `has`, the key.
    public var key: String?
    public var value: String?

    public init(_ name: Name, negated: Bool = false, key: String? = nil, value: String? = nil) {
        self.name = name
        self.negated = negated
        self.key = key
        self.value = value
    }

    /// `is_anonymous`, `not is_anonymous`, `KEY == VALUE`, `KEY != VALUE`, `has KEY` or
    /// `not has KEY`.
    public init?(text: String) {
        let words = text.split(separator: " ").map(String.init)
        if words.count == 3, words[1] == "==" || words[1] == "!=" {
            self.init(.equals, negated: words[1] == "!=", key: words[0], value: words[2])
        } else if words.count == 2, words[0] == Name.has.rawValue {
            self.init(.has, key: words[1])
        } else if words.count == 3, words[0] == "not", words[1] == Name.has.rawValue {
            self.init(.has, negated: true, key: words[2])
        } else if words.count == 2, words[0] == "not", let name = Name(rawValue: words[1]), name != .has {
            self.init(name, negated: true)
        } else if words.count == 1, let name = Name(rawValue: words[0]), name != .has {
            self.init(name)
        } else {
            return nil
        }
    }
}

extension Guard {
    /// As the flow file writes it: `is_anonymous`, `not has_pro`, `biometrics == face_id`.
    public var text: String {
        if name == .equals { return "\(key ?? "") \(negated ? "!=" : "==") \(value ?? "")" }
        if name == .has { return "\(negated ? "not " : "")has \(key ?? "")" }
        return negated ? "not \(name.rawValue)" : name.rawValue
    }
}

/// Result codes a service call can end with, as `on:` keys. `success` and the
/// catch-all `error` come on top of these. They match the service's error codes.
public enum ResultCode {
    public static let serviceErrors = Set(ServiceError.Code.allCases.map(\.rawValue))
    public static let all: Set<String> = serviceErrors.union(["success", "error"])
}
