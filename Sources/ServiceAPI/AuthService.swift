/// The one interface the runtime calls. Transports: in process (the embedded mock) and
/// HTTP (`onboard-server`); each sends any `WireCall` one way. Every failure is a
/// `ServiceError` with a stable code; one contract test suite runs against both.
public protocol AuthService: Sendable {
    /// `bearer`: the session's access token, for the calls that need one (and a departing
    /// guest's at a log-in).
    func send<Call: WireCall>(_ call: Call, bearer: String?) async throws -> Call.Answer
}

/// A service that wraps another and runs every call through `around` (faults, counting,
/// delays). Conformers write `around` once; the forwarding is here.
public protocol AuthServiceDecorator: AuthService {
    var base: any AuthService { get }
    /// `endpoint` names the call (`.refresh`, `.health`, …).
    func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T
}

extension AuthServiceDecorator {
    public func send<Call: WireCall>(_ call: Call, bearer: String?) async throws -> Call.Answer {
        try await around(Call.endpoint) { try await base.send(call, bearer: bearer) }
    }
}
