/// Where a call lives over HTTP, under `/api/v1`: declared with the call itself
/// (`WireCall.endpoint`), so a new call names its method and path where its body is
/// declared. The HTTP transport sends to it, the server routes it, and tests hold the
/// routes and the OpenAPI document to `Endpoint.all`.
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
    }

    /// Where every call's path starts: the API's version.
    public static let root = "/api/v1"

    public let method: Method
    /// The path under `root`; a `:name` part is a parameter.
    public let path: String

    /// The path from the server's root: `/api/v1/auth/refresh`.
    public var address: String { Self.root + path }
    /// Answered only with a session's bearer token, which the server asks for before it
    /// reads the body: a request without one is a 401 before anything is said about it.
    public let needsSession: Bool
    /// Served only with `--dev`: the QA controls, and the mock identity provider, which
    /// would sign a token for any account anyone names.
    public let isDev: Bool

    public init(_ method: Method, _ path: String, needsSession: Bool = false, isDev: Bool = false) {
        (self.method, self.path, self.needsSession, self.isDev) = (method, path, needsSession, isDev)
    }

    /// The API's own description; every other endpoint is a call's.
    public static let openAPI = Endpoint(.get, "/openapi.yaml")
    /// The operator's funnel report (`?flow=&since=&by=version`, an admin token as the
    /// bearer): not a client's call, so not a `WireCall`.
    public static let adminFunnel = Endpoint(.get, "/admin/funnel")
    /// Every endpoint the server has.
    public static var all: [Endpoint] { [openAPI, adminFunnel] + Wire.allCalls.map { $0.endpoint } }

    // The endpoints code names on their own (faults, tests).
    public static var refresh: Endpoint { Wire.RefreshRequest.endpoint }
    public static var putRecord: Endpoint { Wire.RecordRequest.endpoint }
    public static var addRecordItem: Endpoint { Wire.RecordItemRequest.endpoint }

    /// The name of the path's `:name` part, if it has one (`key` in `/records/:key`).
    public var parameterName: String? {
        path.split(separator: "/").first { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }

    /// `PUT /records/{key}`: as the OpenAPI document writes it (paths under `/api/v1`).
    public var documented: String {
        let parts = path.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
        return "\(method.rawValue) /" + parts.joined(separator: "/")
    }

    public var description: String { documented }
}
