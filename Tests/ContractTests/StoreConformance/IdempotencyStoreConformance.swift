import Foundation
import OnboardService
import ServiceAPI
import Testing

/// `IdempotencyStore`'s promises, held on every backend.
@Suite("IdempotencyStore conformance")
struct IdempotencyStoreConformance {
    @Test(arguments: Backend.allCases)
    func aKeyIsClaimedOnceRunsUntilSealedAndIsNeverAnotherRequests(backend: Backend) async throws {
        let store = try await backend.store()
        let claim = { (operation: String, request: String, now: Int64) in
            try await store.claimIdempotency("key-1", operation: operation, request: request, now: now, window: 86_400, wait: 30)
        }
        #expect(try await claim("sign_in", "r1", 1_000) == .claimed)
        #expect(try await claim("sign_in", "r1", 1_001) == .running)
        #expect(try await claim("add_child", "r1", 1_002) == .otherOperation)
        #expect(try await claim("sign_in", "r2", 1_003) == .otherRequest)
        try await store.sealIdempotency("key-1", result: Data("answer".utf8))
        #expect(try await claim("sign_in", "r1", 1_004) == .finished(Data("answer".utf8)))
        // A sealed answer is not released.
        try await store.releaseIdempotency("key-1")
        #expect(try await claim("sign_in", "r1", 1_005) == .finished(Data("answer".utf8)))
    }

    @Test(arguments: Backend.allCases)
    func aReleasedAbandonedOrExpiredKeyIsClaimedAgain(backend: Backend) async throws {
        let store = try await backend.store()
        let claim = { (id: String, now: Int64) in
            try await store.claimIdempotency(id, operation: "sign_in", request: "r", now: now, window: 3_600, wait: 30)
        }
        #expect(try await claim("released", 1_000) == .claimed)
        try await store.releaseIdempotency("released")
        #expect(try await claim("released", 1_001) == .claimed)
        #expect(try await claim("abandoned", 1_000) == .claimed)
        #expect(try await claim("abandoned", 1_031) == .claimed)
        #expect(try await claim("expired", 1_000) == .claimed)
        try await store.sealIdempotency("expired", result: Data("old".utf8))
        #expect(try await claim("expired", 4_601) == .claimed)
    }
}
