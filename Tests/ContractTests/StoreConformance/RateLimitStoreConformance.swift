import OnboardService
import ServiceAPI
import Testing

/// `RateLimitStore`'s promises, held on every backend.
@Suite("RateLimitStore conformance")
struct RateLimitStoreConformance {
    let rule = RateLimit(limit: 2, window: 60)

    @Test(arguments: Backend.allCases)
    func eventsAreCountedInAWindowCheckedWithoutCountingAndGivenBack(backend: Backend) async throws {
        let store = try await backend.store()
        #expect(try await store.hitRateLimit("k", rule, now: 1_000) == nil)
        try await store.releaseRateLimit("k", rule, now: 1_001)
        #expect(try await store.hitRateLimit("k", rule, now: 1_002) == nil)
        #expect(try await store.checkRateLimit("k", rule, now: 1_003) == nil)
        #expect(try await store.hitRateLimit("k", rule, now: 1_004) == nil)
        let wait = try #require(try await store.checkRateLimit("k", rule, now: 1_005))
        #expect(wait > 0 && wait <= 60)
        #expect(try await store.hitRateLimit("k", rule, now: 1_005) != nil)
        #expect(try await store.hitRateLimit("k", rule, now: 1_060) == nil)
        #expect(try await store.hitRateLimits(["a", "k", "b"], rule, now: 1_061) == [nil, nil, nil])
        #expect(try await store.hitRateLimits(["a", "k"], rule, now: 1_062).map { $0 != nil } == [false, true])
    }

    @Test(arguments: Backend.allCases)
    func aWeightIsCountedWholeOrNotAtAll(backend: Backend) async throws {
        let store = try await backend.store()
        let bytes = RateLimit(limit: 10, window: 60)
        #expect(try await store.hitRateLimit("w", bytes, weight: 8, now: 1_000) == nil)
        #expect(try await store.hitRateLimit("w", bytes, weight: 5, now: 1_001) != nil)
        #expect(try await store.hitRateLimit("w", bytes, weight: 2, now: 1_002) == nil)
        #expect(try await store.hitRateLimit("w", bytes, weight: 1, now: 1_003) != nil)
    }

    @Test(arguments: Backend.allCases)
    func anEndedSessionCountsNothing(backend: Backend) async throws {
        let store = try await backend.store()
        let token = try await guest("g1", in: store).token
        #expect(try await store.hitRateLimits(["s"], rule, now: 1_000, forLiveSession: "g1", family: token.family) == [nil])
        try await store.revokeFamily(ofTokenHash: token.hash, now: 1_001)
        #expect(try await store.hitRateLimits(["s"], rule, now: 1_002, forLiveSession: "g1", family: token.family) == nil)
        #expect(try await store.hitRateLimits(["s"], rule, now: 1_003) == [nil])
    }

    @Test(arguments: Backend.allCases)
    func aLockoutCountsFailuresInItsWindowAndGivesBackWhatWasNone(backend: Backend) async throws {
        let store = try await backend.store()
        #expect(try await store.hitLockout("login:ann", rule, now: 1_000) == nil)
        try await store.releaseLockout("login:ann", rule, now: 1_001)
        #expect(try await store.hitLockout("login:ann", rule, now: 1_002) == nil)
        #expect(try await store.hitLockout("login:ann", rule, now: 1_003) == nil)
        #expect(try await store.hitLockout("login:ann", rule, now: 1_010) == 50)
        #expect(try await store.hitLockout("login:ann", rule, now: 1_062) == nil)
    }
}
