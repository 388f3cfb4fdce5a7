import Synchronization

/// The faults in force, and what each does to a call: written once for the client's
/// `FaultInjectingService` and the server's `--dev` middleware, so an injected fault
/// reads the same whichever side made it. The QA console switches them on and off.
public final class FaultSwitchboard: Sendable {
    private let state: Mutex<(faults: [Fault], failuresLeft: Int, slowedLastPoll: Bool)>

    public init(_ faults: [Fault] = []) {
        state = Mutex((faults, Self.failures(in: faults), false))
    }

    public var faults: [Fault] { state.withLock { $0.faults } }

    /// Replaces the faults; `fail-first=N` counts from now.
    public func set(_ faults: [Fault]) {
        state.withLock { $0 = (faults, Self.failures(in: faults), false) }
    }

    /// Adds the fault, or removes it if it is on; returns whether it is on now.
    @discardableResult
    public func toggle(_ fault: Fault) -> Bool {
        state.withLock { state in
            if let index = state.faults.firstIndex(of: fault) {
                state.faults.remove(at: index)
                return false
            }
            state.faults.append(fault)
            state.failuresLeft += Self.failures(in: [fault])
            return true
        }
    }

    /// The failure a call to `endpoint` meets, after any `slow` delay; nil lets it
    /// through. A refresh (`reauth-fail`) and a device sign-in's poll (`slow-down`,
    /// `expired-device-code`) are told apart; nil is any other call.
    static let backgroundEndpoints: Set<Endpoint> = [Wire.EventsRequest.endpoint, Wire.ForgetEventsRequest.endpoint]

    public func failure(for endpoint: Endpoint?) async -> ServiceError? {
        // QA's faults are for the person's calls: analytics delivery in the background
        // would otherwise spend `fail-first`'s count and turn a walk's error screens
        // up at random. (Delivery's own failures are tested with a server killed.)
        if let endpoint, Self.backgroundEndpoints.contains(endpoint) { return nil }
        let faults = self.faults
        for case .slow(let milliseconds) in faults {
            try? await Task.sleep(for: .milliseconds(milliseconds))
        }
        for fault in faults {
            switch fault {
            case .network: return Self.injected(.network, "The service cannot be reached", fault)
            case .serverError: return Self.injected(.serverError, "The service failed", fault)
            case .rateLimit: return Self.injected(.rateLimited, "Too many attempts. Please wait and try again", fault, retryAfter: 30)
            case .timeout: return Self.injected(.timeout, "The service did not answer in time", fault)
            case .reauthFail where endpoint == .refresh: return Self.injected(.unauthorized, "The session was rejected", fault)
            case .failFirst:
                let fail = state.withLock { state in
                    guard state.failuresLeft > 0 else { return false }
                    state.failuresLeft -= 1
                    return true
                }
                if fail { return Self.injected(.network, "The service cannot be reached", fault) }
            case .slowDown where endpoint == Wire.DeviceTokenRequest.endpoint:
                // Every other poll: the device slows down, and still gets its answer.
                let slowed = state.withLock { state in
                    state.slowedLastPoll.toggle()
                    return state.slowedLastPoll
                }
                if slowed { return Self.injected(.slowDown, "Asked again too soon: poll 5 seconds less often", fault) }
            case .expiredDeviceCode where endpoint == Wire.DeviceTokenRequest.endpoint:
                return Self.injected(.expiredToken, "This sign-in code has expired. Start again for a new one", fault)
            case .slow, .reauthFail, .forgedIDToken, .slowDown, .expiredDeviceCode:
                break
            }
        }
        return nil
    }

    /// `fail-first=3` → "… (injected fault: fail-first)": QA sees which fault it was.
    private static func injected(_ code: ServiceError.Code, _ message: String, _ fault: Fault, retryAfter: Int? = nil) -> ServiceError {
        let name = fault.description.split(separator: "=").first.map(String.init) ?? fault.description
        return ServiceError(code, "\(message) (injected fault: \(name)).", retryAfter: retryAfter)
    }

    private static func failures(in faults: [Fault]) -> Int {
        faults.reduce(0) { total, fault in
            if case .failFirst(let count) = fault { return total + count }
            return total
        }
    }
}
