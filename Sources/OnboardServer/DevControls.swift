import Foundation
import Hummingbird
import OnboardService
import ServiceAPI

/// Applies the injected faults to every API request except the QA endpoints themselves.
/// `--dev`: the QA clock every instance on the store shares, read before each request
/// (one small query, only on a QA server), so `/dev/clock` on one moves them all.
struct SharedClockMiddleware: RouterMiddleware {
    typealias Context = APIContext
    let clock: AdjustableClock
    let service: OnboardService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let offset = try? await service.qaClockOffset() { clock.offsetSeconds = offset }
        return try await next(request, context)
    }
}

/// Faults the server injects into its own answers (`--dev` only), so QA can make any
/// client see any failure: the same kinds, and the same failures, as the client's
/// `--fault`. A `network` fault answers 503 with the code `network`, which clients treat
/// as unreachable.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = APIContext
    let faults: FaultSwitchboard

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if !path.hasPrefix("/api/v1/dev/"), let failure = await faults.failure(for: path == "/api/v1" + Endpoint.refresh.path ? .refresh : nil) {
            throw failure
        }
        return try await next(request, context)
    }
}
