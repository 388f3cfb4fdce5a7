import Foundation
import Hummingbird
import OnboardService
import ServiceAPI

/// Every failure leaves the server as one JSON envelope, `{code, message, retry_after?}`,
/// with a stable code: service errors, malformed or oversized bodies, unknown routes.
/// Anything unexpected is logged and answered as `server_error`, never a crash.
struct ErrorEnvelopeMiddleware: RouterMiddleware {
    typealias Context = APIContext
    /// The methods each route answers, for 405 and `Allow` on a path that exists.
    let methods: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            return Self.response(for: error)
        } catch let error as UnsupportedBodyType {
            return Self.response(for: error.serviceError, status: .unsupportedMediaType)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = methods.allowed(on: request.uri.path)
            guard !allowed.isEmpty else { return Self.response(for: Self.translate(error)) }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            var response = Self.response(
                for: ServiceError(.invalidInput, "\(request.method.rawValue) is not allowed on \(request.uri.path); it answers \(list)."),
                status: .methodNotAllowed)
            response.headers[.allow] = list
            return response
        } catch let error as HTTPError {
            return Self.response(for: Self.translate(error))
        } catch let error as any HTTPResponseError {
            return Self.response(
                for: ServiceError(.invalidInput, "The request was not accepted (HTTP \(error.status.code))."), status: error.status)
        } catch let error as DecodingError {
            return Self.response(for: ServiceError(.invalidInput, BodyDecoder.explain(error)))
        } catch {
            context.logger.error("unexpected error", metadata: ["error": "\(type(of: error))"])
            return Self.response(for: .failedUnexpectedly)
        }
    }

    static func translate(_ error: HTTPError) -> ServiceError {
        switch error.status {
        case .notFound: ServiceError(.notFound, "There is no such endpoint.")
        case .contentTooLarge: ServiceError(.invalidInput, "The request body is too large.")
        case .methodNotAllowed: ServiceError(.notFound, "That method is not allowed here.")
        case .unauthorized: ServiceError.sessionRejected
        default: ServiceError(.invalidInput, error.body ?? "The request is not valid.")
        }
    }

    static func response(for error: ServiceError, status: HTTPResponse.Status? = nil) -> Response {
        let body = (try? JSONEncoder().encode(error)) ?? Data("{\"code\":\"server_error\",\"message\":\"\"}".utf8)
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        // An invalid request may say which (405, 413, 415); every other code has its one status.
        let chosen = error.code == .invalidInput ? status ?? .badRequest : HTTPResponse.Status(code: error.code.httpStatus)
        return Response(status: chosen, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
