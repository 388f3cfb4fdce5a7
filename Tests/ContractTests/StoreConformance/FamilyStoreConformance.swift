import OnboardService
import ServiceAPI
import Testing

/// `FamilyStore`'s promises, held on every backend.
@Suite("FamilyStore conformance")
struct FamilyStoreConformance {
    @Test(arguments: Backend.allCases)
    func anInviteSharesItsChildOnceWithWhoeverRedeemsItFirst(backend: Backend) async throws {
        let store = try await backend.store()
        try await account("parent", email: "ann@example.com", name: "Ann", in: store)
        try await account("partner", email: "bob@example.com", name: "Bob", in: store)
        try await account("stranger", email: "eve@example.com", name: "Eve", in: store)
        let child = Child(id: "c1", name: "Mia", birthDate: "2026-01-02")
        try await store.addChild(child, by: "parent", now: 1_000)
        #expect(try await store.children(of: "parent") == [child])
        #expect(
            try await store.createInvite(codeHash: "stolen", childID: "c1", by: "stranger", now: 1_001, expiresAt: 2_000, outbox: nil)
                == false)
        #expect(try await store.createInvite(codeHash: "code", childID: "c1", by: "parent", now: 1_001, expiresAt: 2_000, outbox: nil))
        // The inviter spends nothing: the code is kept for whom it was meant.
        #expect(try await store.redeemInvite(codeHash: "code", by: "parent", now: 1_002) == nil)
        #expect(try await store.childAlreadyTracked(inviteCodeHash: "code", by: "parent", now: 1_002) == "Mia")
        let redeemed = InviteRedemption(child: child, sharerName: "Ann", sharerDisplayName: nil, sharerEmail: "ann@example.com")
        #expect(try await store.redeemInvite(codeHash: "code", by: "partner", now: 1_003) == redeemed)
        // Its answer lost, the winner redeems it again; no one else can.
        #expect(try await store.redeemInvite(codeHash: "code", by: "partner", now: 1_004) == redeemed)
        #expect(try await store.redeemInvite(codeHash: "code", by: "stranger", now: 1_005) == nil)
        #expect(try await store.children(of: "partner") == [child])
        #expect(try await store.children(of: "stranger").isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func anExpiredOrUnknownInviteSharesNothing(backend: Backend) async throws {
        let store = try await backend.store()
        try await account("parent", email: "ann@example.com", in: store)
        try await guest("g1", in: store)
        try await store.addChild(Child(id: "c1", name: "Mia", birthDate: nil), by: "parent", now: 1_000)
        #expect(try await store.createInvite(codeHash: "code", childID: "c1", by: "parent", now: 1_001, expiresAt: 1_100, outbox: nil))
        #expect(try await store.redeemInvite(codeHash: "code", by: "g1", now: 1_100) == nil)
        #expect(try await store.redeemInvite(codeHash: "other", by: "g1", now: 1_050) == nil)
        #expect(try await store.children(of: "g1").isEmpty)
    }
}
