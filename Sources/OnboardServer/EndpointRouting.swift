import Hummingbird
import ServiceAPI

extension RouterMethods {
    /// Routes one of the service's declared endpoints (on a router, a group or a
    /// `RouteCollection`).
    @discardableResult
    func on(_ endpoint: Endpoint, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator) -> Self {
        let method: HTTPRequest.Method =
            switch endpoint.method {
            case .get: .get
            case .post: .post
            case .put: .put
            }
        return on(RouterPath(String(endpoint.path.dropFirst())), method: method, use: handler)
    }
}
