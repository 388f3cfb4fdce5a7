import Foundation
import Hummingbird
import OnboardService
import ServiceAPI
import Synchronization

/// Faults the server injects into its own answers (`--dev` only), so QA can make any
/// client see any failure: the same kinds as the client's `--fault`. A `network` fault
/// answers 503 with the code `network`, which clients treat as unreachable.
final class ServerFaults: Sendable {
    private let state = Mutex<(faults: [Fault], failuresLeft: Int)>(([], 0))

    var current: [Fault] { state.withLock { $0.faults } }

    func set(_ faults: [Fault]) {
        let failures = faults.reduce(0) { total, fault in
            if case .failFirst(let count) = fault { return total + count }
            return total
        }
        state.withLock { $0 = (faults, failures) }
    }

    /// The failure for this request, after any delay; nil lets it through.
    func failure(isRefresh: Bool) async -> ServiceError? {
        let faults = current
        for case .slow(let milliseconds) in faults {
            try? await Task.sleep(for: .milliseconds(milliseconds))
        }
        for fault in faults {
            switch fault {
            case .network: return ServiceError(.network, "The service is unavailable (injected fault: network).")
            case .serverError: return ServiceError(.serverError, "The service failed (injected fault: server-error).")
            case .rateLimit: return ServiceError(.rateLimited, "Too many attempts. Please wait and try again (injected fault: rate-limit).", retryAfter: 30)
            case .reauthFail where isRefresh: return ServiceError(.unauthorized, "The session was rejected (injected fault: reauth-fail).")
            case .failFirst:
                let fail = state.withLock { state in
                    guard state.failuresLeft > 0 else { return false }
                    state.failuresLeft -= 1
                    return true
                }
                if fail { return ServiceError(.network, "The service is unavailable (injected fault: fail-first).") }
            case .slow, .reauthFail, .forgedIDToken, .timeout:
                break
            }
        }
        return nil
    }
}

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

struct FaultMiddleware: RouterMiddleware {
    typealias Context = APIContext
    let faults: ServerFaults

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if !path.hasPrefix("/api/v1/dev/"), let failure = await faults.failure(isRefresh: path == "/api/v1/auth/refresh") {
            throw failure
        }
        return try await next(request, context)
    }
}
