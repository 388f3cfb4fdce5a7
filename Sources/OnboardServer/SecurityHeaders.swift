import Hummingbird

/// Headers every answer carries, errors included: nothing an answer holds (tokens, codes,
/// a profile) is kept by a cache on the way (ASVS 8.2.1), and no client guesses another
/// type than the one declared (ASVS 14.4.4).
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = APIContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
