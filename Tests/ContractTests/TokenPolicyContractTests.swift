import ScreenTable
import ServiceAPI
import ServiceClient
import Testing

extension ContractTests {
    /// A guest gets its flow's token lifetimes (the `tokens` block of its file) from the
    /// embedded mock and from onboard-server alike; a named account gets 24 hours and
    /// 30 days from both, whatever the flow.
    @Test(arguments: transports) func tokenLifetimesAreEachFlowsOnBothServices(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        for id in BuiltinFlows.ids {
            let tokens = try BuiltinFlows.load(id).tokens
            let guest = try await subject.service.signInAnonymously(flow: id).session
            #expect(guest.accessExpiresAt - guest.issuedAt == tokens.accessLifetime, "\(id) on \(kind)")
            #expect(guest.refreshExpiresAt.map { $0 - guest.issuedAt } == tokens.refreshLifetime, "\(id) on \(kind)")
        }
        let named = try await subject.service.register(
            flow: "babybasics", name: "Ana", email: "ana-\(kind)@example.org", password: "long enough")
        #expect(named.accessExpiresAt - named.issuedAt == TokenPolicy.named.accessLifetime)
        #expect(named.refreshExpiresAt.map { $0 - named.issuedAt } == TokenPolicy.named.refreshLifetime)
    }
}
