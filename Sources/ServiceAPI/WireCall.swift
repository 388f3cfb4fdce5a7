/// One call to the service, declared once: the value is the request's JSON body, its type
/// names the endpoint and the answer. The HTTP transport sends any of them one way; the
/// embedded mock and onboard-server's routes serve any of them one way
/// (`OnboardService.ServedCall`), so a new endpoint is a new conformance, not a new
/// method in each transport.
public protocol WireCall: Codable, Sendable {
    associatedtype Answer: Codable & Sendable
    static var endpoint: Endpoint { get }
    /// The `:name` part of the endpoint's path, for the endpoints that have one.
    var pathParameter: String? { get set }
}

extension WireCall {
    public var pathParameter: String? {
        get { nil }
        set {}
    }
}
