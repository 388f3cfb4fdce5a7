import Synchronization

/// What injected faults keep count of between calls: fail-first's failures left, and
/// slow-down's every other poll. The client keeps them in memory (`FaultSwitchboard`);
/// servers on one store keep them in it, so a fault QA sets hits every instance alike.
public protocol FaultTally: Sendable {
    /// Takes one of fail-first's failures; false when none is left.
    func takeFailure() async -> Bool
    /// Whether this device poll is the slowed one (every other poll is).
    func slowsThisPoll() async -> Bool
}

/// The faults in force, and what each does to a call: written once for the client's
/// `FaultInjectingService` and the server's `--dev` middleware, so an injected fault
/// reads the same whichever side made it. The QA console switches them on and off.
public final class FaultSwitchboard: FaultTally {
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

    /// Calls made in the background, which faults leave alone.
    static let backgroundEndpoints: Set<Endpoint> = [Wire.EventsRequest.endpoint, Wire.ForgetEventsRequest.endpoint]

    /// The failure a call to `endpoint` meets, after any `slow` delay; nil lets it
    /// through. A refresh (`reauth-fail`) and a device sign-in's poll (`slow-down`,
    /// `expired-device-code`) are told apart; nil is any other call.
    public func failure(for endpoint: Endpoint?) async -> ServiceError? {
        await Self.failure(for: endpoint, faults: faults, tally: self)
    }

    public func takeFailure() async -> Bool {
        state.withLock { state in
            guard state.failuresLeft > 0 else { return false }
            state.failuresLeft -= 1
            return true
        }
    }

    public func slowsThisPoll() async -> Bool {
        state.withLock { state in
            state.slowedLastPoll.toggle()
            return state.slowedLastPoll
        }
    }

    /// The failure `faults` make of a call to `endpoint`, their counts kept by `tally`.
    public static func failure(for endpoint: Endpoint?, faults: [Fault], tally: any FaultTally) async -> ServiceError? {
        // QA's faults are for the person's calls: analytics delivery in the background
        // would otherwise spend `fail-first`'s count and turn a walk's error screens
        // up at random. (Delivery's own failures are tested with a server killed.)
        if let endpoint, backgroundEndpoints.contains(endpoint) { return nil }
        for case .slow(let milliseconds) in faults {
            try? await Task.sleep(for: .milliseconds(milliseconds))
        }
        for fault in faults {
            switch fault {
            case .network: return injected(.network, "The service cannot be reached", fault)
            case .serverError: return injected(.serverError, "The service failed", fault)
            case .rateLimit: return injected(.rateLimited, "Too many attempts. Please wait and try again", fault, retryAfter: 30)
            case .timeout: return injected(.timeout, "The service did not answer in time", fault)
            case .reauthFail where endpoint == .refresh: return injected(.unauthorized, "The session was rejected", fault)
            case .failFirst:
                if await tally.takeFailure() { return injected(.network, "The service cannot be reached", fault) }
            case .slowDown where endpoint == Wire.DeviceTokenRequest.endpoint:
                // Every other poll: the device slows down, and still gets its answer.
                if await tally.slowsThisPoll() { return injected(.slowDown, "Asked again too soon: poll 5 seconds less often", fault) }
            case .expiredDeviceCode where endpoint == Wire.DeviceTokenRequest.endpoint:
                return injected(.expiredToken, "This sign-in code has expired. Start again for a new one", fault)
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

    public static func failures(in faults: [Fault]) -> Int {
        faults.reduce(0) { total, fault in
            if case .failFirst(let count) = fault { return total + count }
            return total
        }
    }
}
