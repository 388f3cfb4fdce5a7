/// Every call the service answers, declared once: its name (faults, the decorator) and
/// where it lives over HTTP, under `/api/v1`. The HTTP transport sends to it, the server
/// routes it, and tests hold the routes and the OpenAPI document to this list.
public enum Endpoint: String, CaseIterable, Sendable {
    case health
    case openAPI = "openapi"
    case appConfig = "app_config"
    case signInAnonymously = "sign_in_anonymously"
    case chooseName = "choose_name"
    case register
    case login
    case linkEmail = "link_email"
    case sendPhoneCode = "send_phone_code"
    case verifyPhoneCode = "verify_phone_code"
    case socialSignIn = "social_sign_in"
    case refresh
    case logout
    case profile
    case updateProfile = "update_profile"
    case addChild = "add_child"
    case children
    case createInvite = "create_invite"
    case acceptInvite = "accept_invite"
    case putRecord = "put_record"
    case records
    case motivation
    case content
    // QA controls, served only by `onboard-server --dev`.
    case mockIdentityToken = "mock_identity_token"
    case devOutbox = "dev_outbox"
    case devReset = "dev_reset"
    case devConfig = "dev_config"
    case devClock = "dev_clock"
    case devFaults = "dev_faults"

    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
    }

    public var method: Method {
        switch self {
        case .health, .openAPI, .appConfig, .profile, .children, .records, .motivation, .content, .devOutbox: .get
        case .updateProfile, .putRecord: .put
        case .signInAnonymously, .chooseName, .register, .login, .linkEmail, .sendPhoneCode, .verifyPhoneCode, .socialSignIn, .refresh,
             .logout, .addChild, .createInvite, .acceptInvite, .mockIdentityToken, .devReset, .devConfig, .devClock, .devFaults:
            .post
        }
    }

    /// The path under `/api/v1`; a `:name` part is a parameter.
    public var path: String {
        switch self {
        case .health: "/health"
        case .openAPI: "/openapi.yaml"
        case .appConfig: "/app/config"
        case .signInAnonymously: "/auth/anonymous"
        case .chooseName: "/user/name"
        case .register: "/auth/register"
        case .login: "/auth/login"
        case .linkEmail: "/auth/link-email"
        case .sendPhoneCode: "/auth/phone/send"
        case .verifyPhoneCode: "/auth/phone/verify"
        case .mockIdentityToken: "/mock-idp/token"
        case .socialSignIn: "/auth/social"
        case .refresh: "/auth/refresh"
        case .logout: "/auth/logout"
        case .profile, .updateProfile: "/user/profile"
        case .addChild, .children: "/children"
        case .createInvite: "/invites"
        case .acceptInvite: "/invites/accept"
        case .putRecord: "/records/:key"
        case .records: "/records"
        case .motivation: "/content/motivation/random"
        case .content: "/content/:kind"
        case .devOutbox: "/dev/outbox"
        case .devReset: "/dev/reset"
        case .devConfig: "/dev/config"
        case .devClock: "/dev/clock"
        case .devFaults: "/dev/faults"
        }
    }

    /// Served only with `--dev`: the QA controls, and the mock identity provider, which
    /// would sign a token for any account anyone names.
    public var isDev: Bool { self == .mockIdentityToken || rawValue.hasPrefix("dev_") }

    /// `PUT /records/{key}`: as the OpenAPI document writes it (paths under `/api/v1`).
    public var documented: String {
        let parts = path.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
        return "\(method.rawValue) /" + parts.joined(separator: "/")
    }
}
