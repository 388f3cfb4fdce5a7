import ServiceAPI
import ServiceClient
import Synchronization

/// Which service a call goes to. Most flows use the one Onboard was started with; a flow
/// with a `service_url` (Baby Basics' server URL screen) names its own: `mock://local`
/// for the embedded mock, or an `http(s)://` onboard-server. QA faults wrap each.
public final class ServiceDirectory: Sendable {
    public static let mockAddress = "mock://local"

    private let defaultService: any AuthService
    private let makeMock: @Sendable () throws -> any AuthService
    private let faults: FaultSwitchboard?
    private let insecure: Bool
    private let trustRoots: [String]
    private let cache = Mutex<[String: any AuthService]>([:])

    /// The embedded mock when Onboard runs on it, for QA's outbox.
    public let runningMock: MockHelperTransport?

    public init(
        default defaultService: any AuthService, mock makeMock: @escaping @Sendable () throws -> any AuthService,
        runningMock: MockHelperTransport? = nil, faults: FaultSwitchboard? = nil, insecure: Bool = false, trustRoots: [String] = []
    ) {
        self.defaultService = defaultService
        self.makeMock = makeMock
        self.runningMock = runningMock
        self.faults = faults
        self.insecure = insecure
        self.trustRoots = trustRoots
    }

    /// One fixed service for every call (tests, flows without a server URL).
    public convenience init(fixed service: any AuthService) {
        self.init(default: service, mock: { service })
    }

    public func service(for address: String?) throws -> any AuthService {
        guard let address, !address.isEmpty else { return defaultService }
        if let known = cache.withLock({ $0[address] }) { return known }
        let base: any AuthService
        if address == Self.mockAddress {
            base = try makeMock()
        } else {
            do {
                base = try HTTPTransport(base: address, insecure: insecure, trustRoots: trustRoots)
            } catch {
                throw ServiceError(.invalidInput, "\(error)")
            }
        }
        let service: any AuthService = faults.map { FaultInjectingService(wrapping: base, switchboard: $0) } ?? base
        cache.withLock { $0[address] = service }
        return service
    }
}
