import Foundation
import Hummingbird
import OnboardService
import ServiceAPI

/// `--dev`'s QA settings, which every instance on the store shares: the clock's offset
/// (`/dev/clock`) and the injected faults (`/dev/faults`), read before each request in one
/// small query (only on a QA server), so a setting made through one instance behind a
/// load balancer holds on all. A store that does not answer is the request's 503 then,
/// at the store's own deadline, not after it as well.
struct SharedQAMiddleware: RouterMiddleware {
    typealias Context = APIContext
    let clock: AdjustableClock
    let service: OnboardService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let settings = try await service.qaSettings()
        clock.offsetSeconds = settings[SharedFaults.clock] ?? 0
        let path = request.uri.path
        // Faults are for the API's calls, not the QA endpoints that set them.
        if !path.hasPrefix(Endpoint.root + "/dev/") {
            let faults = SharedFaults.faults(in: settings)
            let endpoint = path == Endpoint.refresh.address ? Endpoint.refresh : nil
            if !faults.isEmpty,
                let failure = await FaultSwitchboard.failure(
                    for: endpoint, faults: faults, tally: SharedFaults(service: service, faults: faults))
            {
                throw failure
            }
        }
        return try await next(request, context)
    }
}

/// The injected faults as the store keeps them (`fault:NAME` to its count), their counts
/// taken atomically there: three instances share fail-first=3's three failures.
struct SharedFaults: FaultTally {
    static let clock = "clock"
    static let prefix = "fault:"
    let service: OnboardService
    let faults: [Fault]

    static func faults(in settings: [String: Int64]) -> [Fault] {
        settings.keys.filter { $0.hasPrefix(prefix) }.sorted().compactMap { Fault(argument: String($0.dropFirst(prefix.count))) }
    }

    /// What `/dev/faults` stores: each fault with its starting count.
    static func settings(_ faults: [Fault]) -> [String: Int64] {
        Dictionary(faults.map { (prefix + $0.description, Int64(FaultSwitchboard.failures(in: [$0]))) }) { first, _ in first }
    }

    func takeFailure() async -> Bool {
        for fault in faults {
            if case .failFirst = fault, (try? await service.countDownQASetting(Self.prefix + fault.description)) == true { return true }
        }
        return false
    }

    func slowsThisPoll() async -> Bool {
        (try? await service.flipQASetting(Self.prefix + Fault.slowDown.description)) ?? false
    }
}
