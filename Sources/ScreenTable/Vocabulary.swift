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
    /// Saves the fields of the screen it is called from to the signed-in user's profile.
    case saveProfile = "save_profile"
    /// As `save_profile`, and marks the profile complete.
    case finishProfile = "finish_profile"
    /// Ends the session at the service (best effort offline) and forgets everything this
    /// flow kept on this device.
    case logOut = "log_out"

    /// Context keys the operation reads.
    public var inputs: [String] {
        switch self {
        case .chooseName: ["chosen_name"]
        case .logRuck: ["distance_km", "duration_min"]
        case .linkEmail, .logIn: ["email", "password"]
        case .setUsername: ["username"]
        case .connectServer: ["server_url"]
        case .register: ["name", "email", "password"]
        case .acceptInvite: ["invite_code"]
        case .addChild: ["baby_name", "birth_date"]
        case .sendPhoneCode: ["country", "phone"]
        case .verifyPhoneCode: ["phone_e164", "sms_code"]
        case .socialSignIn: ["provider", "social_account"]
        default: []
        }
    }

    /// Whether the operation needs a signed-in session.
    public var needsSession: Bool {
        switch self {
        case .health, .signInAnonymously, .logIn, .connectServer, .register, .sendPhoneCode, .verifyPhoneCode, .socialSignIn: false
        default: true
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
    }

    public var name: Name
    public var negated: Bool

    public init(_ name: Name, negated: Bool = false) {
        self.name = name
        self.negated = negated
    }

    /// `is_anonymous` or `not is_anonymous`.
    public init?(text: String) {
        let words = text.split(separator: " ").map(String.init)
        if words.count == 2, words[0] == "not", let name = Name(rawValue: words[1]) {
            self.init(name, negated: true)
        } else if words.count == 1, let name = Name(rawValue: words[0]) {
            self.init(name)
        } else {
            return nil
        }
    }
}

/// Result codes a service call can end with, as `on:` keys. `success` and the
/// catch-all `error` come on top of these. They match the service's error codes.
public enum ResultCode {
    public static let serviceErrors: Set<String> = [
        "network", "timeout", "server_error", "rate_limited", "unauthorized",
        "invalid_input", "not_found", "conflict", "bad_response",
    ]
    public static let all: Set<String> = serviceErrors.union(["success", "error"])
}
