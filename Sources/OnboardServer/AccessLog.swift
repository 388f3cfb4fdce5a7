import Foundation
import Hummingbird
import Logging

/// One line per request, once it is answered: method, path, status and duration. The
/// path is the route it matched (`/api/v1/records/{key}`, `/D/{code}`), so nothing a path
/// carries — a record's name, a device sign-in's user code — reaches the log, nor a query
/// string (a token put in a URL by mistake, `?access_token=…`; ASVS 7.1.1); a path that
/// matched no route is logged as it came, without its query.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = APIContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info("request", metadata: [
            "method": .string(request.method.rawValue),
            "path": .string(context.endpointPath.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? request.uri.path),
            "status": .stringConvertible(response.status.code),
            "duration_ms": .string(String(format: "%.1f", milliseconds)),
        ])
        return response
    }
}
