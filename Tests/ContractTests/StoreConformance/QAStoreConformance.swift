import OnboardService
import ServiceAPI
import Testing

/// `QAStore`'s and `ServiceStore`'s own promises, held on every backend.
@Suite("QAStore conformance")
struct QAStoreConformance {
    @Test(arguments: Backend.allCases)
    func settingsAreSharedCountedDownAndFlippedAtomically(backend: Backend) async throws {
        let store = try await backend.store()
        #expect(try await store.flipQASetting("fault:turn") == false)
        try await store.setQAFaults(["fault:slow": 2, "fault:turn": 0])
        try await store.setQAClockOffset(90)
        #expect(try await store.qaSettings() == ["fault:slow": 2, "fault:turn": 0, "clock": 90])
        #expect(try await store.countDownQASetting("fault:slow"))
        #expect(try await store.countDownQASetting("fault:slow"))
        #expect(try await store.countDownQASetting("fault:slow") == false)
        #expect(try await store.flipQASetting("fault:turn"))
        #expect(try await store.flipQASetting("fault:turn") == false)
        try await store.setQAFaults([:])
        #expect(try await store.qaSettings()["fault:slow"] == nil)
    }

    @Test(arguments: Backend.allCases)
    func aResetForgetsEveryoneButKeepsTheKeys(backend: Backend) async throws {
        let store = try await backend.store()
        let key = try await store.storedKey(named: "access", fresh: [1, 2, 3])
        #expect(key == [1, 2, 3])
        #expect(try await store.storedKey(named: "access", fresh: [4, 5, 6]) == [1, 2, 3])
        try await account("a1", email: "ann@example.com", in: store)
        _ = try await store.storePhoneCode(
            PhoneCode(phone: "+6591234567", hash: "h", sentAt: 1_000, expiresAt: 1_300), resendAfter: 30,
            limit: RateLimitHit(key: "sms", rule: RateLimit(limit: 5, window: 60)),
            outbox: OutboxEntry(kind: "sms", destination: "+6591234567", code: "123456", createdAt: 1_000))
        #expect(try await store.outbox() == [OutboxEntry(kind: "sms", destination: "+6591234567", code: "123456", createdAt: 1_000)])
        try await store.reset()
        #expect(try await store.credentials(email: "ann@example.com") == nil)
        #expect(try await store.outbox().isEmpty)
        #expect(try await store.storedKey(named: "access", fresh: [7]) == [1, 2, 3])
        try await store.ping()
    }
}
