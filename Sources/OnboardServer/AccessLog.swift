import Foundation
import Hummingbird
import InputRules
import Logging

/// One line per request, once it is answered: method, path, status, duration and the
/// request's id. The path is the route it matched (`/api/v1/records/{key}`, `/D/{code}`),
/// so nothing a path carries — a record's name, a device sign-in's user code — reaches the
/// log, nor a query string (a token put in a URL by mistake, `?access_token=…`; ASVS
/// 7.1.1); a path that is no route is logged as it came, without its query.
///
/// The id is a trusted proxy's `X-Request-Id` (a plain token of at most 128 characters),
/// or one made here; it goes back in the answer's `X-Request-Id`, so a person's report
/// and the proxy's log find this line.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = APIContext
    static let requestIDHeader = HTTPFields.Element.Name("X-Request-Id")!
    let routes: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let id = Self.requestID(request, context: context)
        var response = try await next(request, context)
        response.headers[Self.requestIDHeader] = id
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                // A route asked with another method is that route; a path no route has is the
                // client's own text: inert, on one line.
                "path": .string(
                    context.matchedRoute ?? routes.template(of: request.uri.path) ?? request.uri.path.madeInert(keepingNewlines: false)),
                "status": .stringConvertible(response.status.code),
                "duration_ms": .stringConvertible((milliseconds * 10).rounded() / 10),
                "request_id": .string(id),
            ])
        return response
    }

    /// A trusted proxy's id when it is a plain token; otherwise a fresh one. A client's
    /// own header is not taken: it could forge another request's id in the log.
    static func requestID(_ request: Request, context: Context) -> String {
        if context.viaTrustedProxy, let given = request.headers[requestIDHeader], (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || [0x2D, 0x2E, 0x5F, 0x3A].contains($0)) })
        {
            return given
        }
        return UUID().uuidString.lowercased()
    }
}
