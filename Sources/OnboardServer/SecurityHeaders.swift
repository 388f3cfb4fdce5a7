import Hummingbird

/// Headers every answer carries, errors included: nothing an answer holds (tokens, codes,
/// a profile) is kept by a cache on the way (ASVS 8.2.1), and no client guesses another
/// type than the one declared (ASVS 14.4.4). Over HTTPS, browsers are told to use
/// nothing else for two years (HSTS, ASVS 14.4.5; Mozilla's value).
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = APIContext
    var https = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
        if https { response.headers[.strictTransportSecurity] = "max-age=63072000" }
        return response
    }
}
