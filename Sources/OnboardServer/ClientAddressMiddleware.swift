import ClientAddress
import Hummingbird

/// Sets the request's client address through `TrustedProxies`.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = APIContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let forwarded = request.headers.filter { $0.name.canonicalName == "x-forwarded-for" }.map(\.value).joined(separator: ",")
        context.viaTrustedProxy = proxies.trusts(context.clientAddress)
        context.clientAddress = proxies.client(peer: context.clientAddress, forwardedFor: forwarded.isEmpty ? nil : forwarded)
        return try await next(request, context)
    }
}
