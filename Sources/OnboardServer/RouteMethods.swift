import Hummingbird

/// Which HTTP methods each route answers (parameters written `{key}`), so a known path
/// asked with another method is a 405 naming them (`Allow`), not a 404.
struct RouteMethods: Sendable {
    private let routes: [(pattern: [Substring], method: HTTPRequest.Method, template: String)]

    init(_ routes: Routes) {
        let router = Router(context: APIContext.self)
        routes.registerProbes(on: router)
        routes.register(on: router)
        self.routes = router.routes.map { ($0.path.description.split(separator: "/"), $0.method, $0.path.description) }
    }

    /// The methods answered on `path`; empty when no route has that path.
    func allowed(on path: String) -> [HTTPRequest.Method] {
        var methods: [HTTPRequest.Method] = []
        for route in matching(path) where !methods.contains(route.method) { methods.append(route.method) }
        return methods
    }

    /// The route `path` is, whatever the method: a 405's line in the log and its metrics
    /// name the route (`/api/v1/records/{key}`), never the path a client wrote.
    func template(of path: String) -> String? {
        matching(path).first?.template
    }

    private func matching(_ path: String) -> [(pattern: [Substring], method: HTTPRequest.Method, template: String)] {
        let parts = path.split(separator: "/")
        return routes.filter { route in
            route.pattern.count == parts.count
                && zip(route.pattern, parts).allSatisfy { pattern, part in pattern.hasPrefix("{") || pattern == part }
        }
    }
}
