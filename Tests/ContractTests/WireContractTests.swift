import EmbeddedMock
import Foundation
import OnboardService
import SQLiteStore
import ServiceAPI
import ServiceClient
import Testing
import Yams

/// The wire contract is declared once, in `ServiceAPI.Wire`, and the OpenAPI document
/// describes the same bodies: each body's keys are its schema's properties, and the keys
/// it cannot leave out are the schema's `required`.
@Suite struct WireContractTests {
    /// Each body by its schema's name, filled in (every key) and bare (only what it must send).
    static let bodies: [(schema: String, full: any Encodable & Sendable, bare: any Encodable & Sendable)] = [
        ("FlowRequest", Wire.FlowRequest(flow: "oklah"), Wire.FlowRequest(flow: nil)),
        (
            "EventsRequest",
            Wire.EventsRequest(events: [
                AnalyticsEvent(
                    id: "0b7f0d3e-6f6c-4c39-9a51-4c2b8f1f4a10", event: "screen_viewed", flow: "oklah", screen: "privacy", userID: "local-1",
                    anonymousID: "local-1", timestamp: "2026-11-26T05:10:36.908Z", appVersion: "0.1.0",
                    properties: ["screen_index": .number(0), "error_code": .text("ERR-ONB-001"), "consented": .flag(true)])
            ]),
            Wire.EventsRequest(events: [
                AnalyticsEvent(
                    id: "0b7f0d3e-6f6c-4c39-9a51-4c2b8f1f4a10", event: "onboarding_start", flow: "oklah", screen: nil, userID: "local-1",
                    anonymousID: "local-1", timestamp: "2026-11-26T05:10:36Z", appVersion: "0.1.0", properties: [:])
            ])
        ),
        ("ForgetEventsRequest", Wire.ForgetEventsRequest(anonymousID: "local-1"), Wire.ForgetEventsRequest(anonymousID: "local-1")),
        ("NameRequest", Wire.NameRequest(name: "Ana"), Wire.NameRequest(name: "Ana")),
        (
            "RegisterRequest", Wire.RegisterRequest(flow: "abby", name: "Ana", email: "a@example.org", password: "long enough"),
            Wire.RegisterRequest(flow: nil, name: "Ana", email: "a@example.org", password: "long enough")
        ),
        (
            "LoginRequest", Wire.LoginRequest(flow: "abby", email: "a@example.org", password: "long enough", bring: ["rucks"]),
            Wire.LoginRequest(flow: nil, email: "a@example.org", password: "long enough")
        ),
        (
            "LinkEmailRequest", Wire.LinkEmailRequest(flow: "rucktracker", email: "a@example.org", password: "long enough"),
            Wire.LinkEmailRequest(flow: nil, email: "a@example.org", password: "long enough")
        ),
        ("RefreshRequest", Wire.RefreshRequest(refreshToken: "t"), Wire.RefreshRequest(refreshToken: "t")),
        ("RefreshRequest", Wire.LogoutRequest(refreshToken: "t"), Wire.LogoutRequest(refreshToken: "t")),
        ("PhoneRequest", Wire.PhoneRequest(phone: "+16505550142"), Wire.PhoneRequest(phone: "+16505550142")),
        (
            "PhoneVerifyRequest", Wire.PhoneVerifyRequest(flow: "abby", phone: "+16505550142", code: "123456"),
            Wire.PhoneVerifyRequest(flow: nil, phone: "+16505550142", code: "123456")
        ),
        (
            "IdentityTokenRequest", Wire.IdentityTokenRequest(provider: "google", account: "a@example.org", audience: "abby", nonce: "n"),
            Wire.IdentityTokenRequest(provider: "google", account: "a@example.org", audience: "abby", nonce: "n")
        ),
        (
            "SocialRequest", Wire.SocialRequest(flow: "abby", provider: "google", idToken: "t", nonce: "n"),
            Wire.SocialRequest(flow: nil, provider: "google", idToken: "t", nonce: nil)
        ),
        (
            "DeviceAuthorizationRequest", Wire.DeviceAuthorizationRequest(flow: "abby", provider: "google"),
            Wire.DeviceAuthorizationRequest(flow: nil, provider: "google")
        ),
        (
            "DeviceTokenRequest", Wire.DeviceTokenRequest(flow: "abby", deviceCode: "dc"),
            Wire.DeviceTokenRequest(flow: nil, deviceCode: "dc")
        ),
        ("DeviceWithdrawalRequest", Wire.DeviceWithdrawalRequest(deviceCode: "dc"), Wire.DeviceWithdrawalRequest(deviceCode: "dc")),
        (
            "DeviceApprovalRequest", Wire.DeviceApprovalRequest(userCode: "BCDF-GHJK", idToken: "t", nonce: "n"),
            Wire.DeviceApprovalRequest(userCode: "BCDF-GHJK", idToken: "t", nonce: "n")
        ),
        ("ProfileRequest", Wire.ProfileRequest(fields: ["age": .number(30)]), Wire.ProfileRequest(fields: [:])),
        ("ChildRequest", Wire.ChildRequest(name: "Kim", birthDate: "2025-02-03"), Wire.ChildRequest(name: "Kim", birthDate: nil)),
        ("InviteRequest", Wire.InviteRequest(childID: "c"), Wire.InviteRequest(childID: "c")),
        ("AcceptRequest", Wire.AcceptRequest(code: "c"), Wire.AcceptRequest(code: "c")),
        ("RecordRequest", Wire.RecordRequest(key: "k", value: .text("v")), Wire.RecordRequest(key: "k", value: .text("v"))),
        ("RecordItemRequest", Wire.RecordItemRequest(key: "k", item: "i"), Wire.RecordItemRequest(key: "k", item: "i")),
        ("ClockRequest", Wire.ClockRequest(offsetSeconds: 60), Wire.ClockRequest(offsetSeconds: 60)),
        ("FaultsRequest", Wire.FaultsRequest(faults: ["network"]), Wire.FaultsRequest(faults: [])),
    ]

    static func schemas() throws -> [String: Any] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/OnboardServer/openapi.yaml")
        let document = try #require(try Yams.load(yaml: String(contentsOf: file, encoding: .utf8)) as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        return try #require(components["schemas"] as? [String: Any])
    }

    static func keys(_ body: any Encodable & Sendable) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(body))
        return Set(try #require(object as? [String: Any]).keys)
    }

    @Test func everyRequestBodyIsItsDocumentedSchema() throws {
        let schemas = try Self.schemas()
        for (name, full, bare) in Self.bodies {
            let schema = try #require(schemas[name] as? [String: Any], "openapi.yaml has no schema \(name)")
            let properties = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
            let required = Set(schema["required"] as? [String] ?? [])
            #expect(try Self.keys(full) == properties, "\(name): Wire's keys vs the document's properties")
            #expect(try Self.keys(bare) == required, "\(name): what Wire always sends vs the document's required")
        }
    }

    @Test func everyDocumentedRequestBodyIsDeclaredInWire() throws {
        let documented = Set(try Self.schemas().keys.filter { $0.hasSuffix("Request") })
        #expect(documented == Set(Self.bodies.map(\.schema)))
    }

    /// Every endpoint a client calls is served by one declaration, the same for the
    /// embedded mock and onboard-server; only the document and the QA controls are the
    /// server's own routes.
    @Test func everyClientEndpointIsAServedCall() {
        let served = OnboardService.servedCalls.map { $0.endpoint }
        #expect(served.count == Set(served).count, "one call per endpoint")
        let serversOwn = Set(
            [Endpoint.openAPI, Endpoint.adminFunnel] + [
                Wire.OutboxCall.endpoint, Wire.ResetCall.endpoint, Wire.ConfigOverride.endpoint,
                Wire.ClockRequest.endpoint, Wire.FaultsRequest.endpoint,
            ])
        #expect(Set(served) == Set(Endpoint.all).subtracting(serversOwn))
        #expect(Set(Endpoint.all).count == Endpoint.all.count, "one endpoint per call")
    }

    /// One table, both ways: what the server answers a code with, a client reading only
    /// the status names the same code (for the codes a bare status can carry).
    @Test func aStatusAndItsCodeAgreeBothWays() {
        for code in [ServiceError.Code.unauthorized, .rateLimited, .serverError] {
            #expect(ServiceError.fromStatus(code.httpStatus, service: "http://127.0.0.1:1").code == code)
        }
        #expect(ServiceError.fromStatus(ServiceError.Code.network.httpStatus, service: "x").code == .network)
        #expect(ServiceError.fromStatus(418, service: "x").code == .badResponse)
    }

    /// The exercise DECISIONS 35 counts: a call declared in one place (here, a test) is
    /// sent and served by the transports as they are, faults included, with nothing
    /// added to any of them.
    @Test func aNewCallNeedsNoTransportCode() async throws {
        let mock = InProcessTransport(service: try OnboardService(database: try ServiceDatabase.inMemory()))
        let guest = try await mock.signInAnonymously(flow: "oklah").session
        let answer = try await mock.send(Echo(text: "hello"), bearer: guest.accessToken)
        #expect(answer == Echo.Answer(text: "hello", userID: guest.userID))
        await #expect(throws: ServiceError.self) { _ = try await mock.send(Echo(text: "hello"), bearer: nil) }
        let down = FaultInjectingService(wrapping: mock, faults: [.network])
        await #expect(throws: ServiceError(.network, "The service cannot be reached (injected fault: network).")) {
            _ = try await down.send(Echo(text: "hello"), bearer: guest.accessToken)
        }
    }
}

/// A throwaway call: its body, endpoint and answer, and how the service serves it.
struct Echo: ServedCall {
    struct Answer: Codable, Sendable, Equatable { var text: String; var userID: String }
    static let endpoint = Endpoint(.post, "/echo", needsSession: true)
    var text: String

    func serve(on service: OnboardService, as caller: Caller) async throws -> Answer {
        Answer(text: text, userID: try await service.profile(accessToken: try caller.accessToken()).userID)
    }
}
