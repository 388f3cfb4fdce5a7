import OnboardService
import ServiceAPI
import Testing

/// `RefreshTokenStore`'s promises, held on every backend.
@Suite("RefreshTokenStore conformance")
struct RefreshTokenStoreConformance {
    @Test(arguments: Backend.allCases)
    func aTokenRotatesToASuccessorInItsFamilyAndARotatedOneWorksOnlyWithinTheGrace(backend: Backend) async throws {
        let store = try await backend.store()
        let token = try await guest("g1", in: store, now: 900).token
        guard
            case .granted(let successor, let isAnonymous, let createdAt) = try await store.rotateRefreshToken(
                hash: token.hash, now: 1_000, grace: 60, successorHash: "next-1")
        else { Issue.record("a live token did not rotate"); return }
        #expect(successor.hash == "next-1" && successor.family == token.family && successor.userID == "g1")
        #expect(isAnonymous && createdAt == 900)
        // A lost answer: the rotated token again, within the grace.
        guard case .granted = try await store.rotateRefreshToken(hash: token.hash, now: 1_030, grace: 60, successorHash: "next-2") else {
            Issue.record("a token rotated within the grace was refused"); return
        }
        // After it: the token leaked, and its whole family ends.
        guard
            case .reused(let userID) = try await store.rotateRefreshToken(hash: token.hash, now: 1_100, grace: 60, successorHash: "next-3")
        else {
            Issue.record("a token rotated long ago was taken again"); return
        }
        #expect(userID == "g1")
        guard case .rejected = try await store.rotateRefreshToken(hash: "next-1", now: 1_101, grace: 60, successorHash: "next-4") else {
            Issue.record("a leaked family's successor still rotates"); return
        }
    }

    @Test(arguments: Backend.allCases)
    func aRevokedExpiredOrUnknownTokenIsRejected(backend: Backend) async throws {
        let store = try await backend.store()
        try await account("a1", email: "ann@example.com", in: store)
        let short = refreshToken(for: "a1", now: 1_000, policy: TokenPolicy(accessLifetime: 60, refreshLifetime: 100))
        try await store.addRefreshToken(short)
        let other = refreshToken(for: "a1", now: 1_000, policy: .named)
        try await store.addRefreshToken(other)
        for (hash, now) in [(short.hash, Int64(1_100)), ("no such token", 1_000)] {
            guard case .rejected = try await store.rotateRefreshToken(hash: hash, now: now, grace: 60, successorHash: "s-\(now)") else {
                Issue.record("\(hash) rotated"); return
            }
        }
        try await store.revokeFamily(ofTokenHash: other.hash, now: 1_001)
        guard case .rejected = try await store.rotateRefreshToken(hash: other.hash, now: 1_002, grace: 60, successorHash: "s") else {
            Issue.record("a revoked token rotated"); return
        }
    }
}
