import Foundation
import Hummingbird
import OnboardService
import ServiceAPI

/// QA's controls on `onboard-server --dev` only (ASVS 14.3.2): the outbox of codes sent,
/// a reset of everything, config overrides, the shared clock and injected faults. The
/// clock and the faults live in the store, so every instance on it moves together.
struct QAControlRoutes {
    let service: OnboardService
    let clock: AdjustableClock

    var collection: RouteCollection<APIContext> {
        let routes = RouteCollection(context: APIContext.self)
        routes.on(Wire.OutboxCall.endpoint) { _, _ in JSONReply(try await service.outbox()) }
        routes.on(Wire.ResetCall.endpoint) { request, _ in
            try UnsupportedBodyType.check(request, is: UnsupportedBodyType.json)
            // The shared QA settings (clock, faults) go with the rest.
            try await service.reset()
            clock.offsetSeconds = 0
            return JSONReply(Wire.Empty())
        }
        routes.on(Wire.ConfigOverride.endpoint) { request, context in
            let body = try await request.decode(as: Wire.ConfigOverride.self, context: context)
            service.overrideConfig(body.values)
            return JSONReply(try await service.appConfig())
        }
        routes.on(Wire.ClockRequest.endpoint) { request, context in
            let body = try await request.decode(as: Wire.ClockRequest.self, context: context)
            guard ClockOffset.isAllowed(body.offsetSeconds) else {
                throw ServiceError(
                    .invalidInput,
                    "offset_seconds must be between -\(ClockOffset.limitSeconds) and \(ClockOffset.limitSeconds) (100 years either way).")
            }
            // In the store, so every instance on it moves: each reads it per request.
            try await service.setQAClockOffset(body.offsetSeconds)
            clock.offsetSeconds = body.offsetSeconds
            return JSONReply(Wire.ClockRequest(offsetSeconds: body.offsetSeconds))
        }
        routes.on(Wire.FaultsRequest.endpoint) { request, context in
            let body = try await request.decode(as: Wire.FaultsRequest.self, context: context)
            var parsed: [Fault] = []
            for name in body.faults {
                let known = Fault.kinds.filter { $0 != "forged-id-token" && $0 != "timeout" }
                guard let fault = Fault(argument: name), fault != .forgedIDToken, fault != .timeout else {
                    // A forged token is made on the client's side (`onboard --fault forged-id-token`),
                    // and a timeout is the client's clock running out (`onboard --fault timeout`).
                    throw ServiceError(.invalidInput, "Unknown fault '\(name)'; known: \(known.joined(separator: ", ")).")
                }
                parsed.append(fault)
            }
            // In the store, as the clock is: every instance on it injects them.
            try await service.setQAFaults(SharedFaults.settings(parsed))
            return JSONReply(Wire.FaultsRequest(faults: parsed.map(\.description)))
        }
        return routes
    }
}
