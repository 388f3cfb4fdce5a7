import Hummingbird

/// Which HTTP methods each route answers (parameters written `{key}`), so a known path
/// asked with another method is a 405 naming them (`Allow`), not a 404.
struct RouteMethods: Sendable {
    private let routes: [(pattern: [Substring], method: HTTPRequest.Method)]

    init(_ routes: Routes) {
        let router = Router(context: APIContext.self)
        routes.registerProbes(on: router)
        routes.register(on: router)
        self.routes = router.routes.map { ($0.path.description.split(separator: "/"), $0.method) }
    }

    /// The methods answered on `path`; empty when no route has that path.
    func allowed(on path: String) -> [HTTPRequest.Method] {
        let parts = path.split(separator: "/")
        var methods: [HTTPRequest.Method] = []
        for route in routes where route.pattern.count == parts.count && !methods.contains(route.method)
            && zip(route.pattern, parts).allSatisfy({ pattern, part in pattern.hasPrefix("{") || pattern == part }) {
            methods.append(route.method)
        }
        return methods
    }
}
