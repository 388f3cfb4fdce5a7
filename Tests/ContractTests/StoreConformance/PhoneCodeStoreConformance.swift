import OnboardService
import ServiceAPI
import Testing

/// `PhoneCodeStore`'s promises, held on every backend.
@Suite("PhoneCodeStore conformance")
struct PhoneCodeStoreConformance {
    let phone = "+6591234567"
    let limit = RateLimitHit(key: "sms:+6591234567", rule: RateLimit(limit: 2, window: 3_600))

    func send(_ hash: String, at now: Int64, in store: any ServiceStore, limit: RateLimitHit? = nil) async throws -> PhoneCodeStored {
        try await store.storePhoneCode(
            PhoneCode(phone: phone, hash: hash, sentAt: now, expiresAt: now + 300), resendAfter: 30, limit: limit ?? self.limit,
            outbox: OutboxEntry(kind: "sms", destination: phone, code: "123456", createdAt: now))
    }

    @Test(arguments: Backend.allCases)
    func aCodeIsSentOncePerResendTimeAndSignsUpThenInItsPhonesUser(backend: Backend) async throws {
        let store = try await backend.store()
        guard case .stored = try await send("right", at: 1_000, in: store) else { Issue.record("the first code was not stored"); return }
        guard case .resendIn(let wait) = try await send("other", at: 1_010, in: store) else {
            Issue.record("a code went out twice"); return
        }
        #expect(wait == 20)
        #expect(try await store.outbox().map(\.destination) == [phone])
        let spend = { (hash: String, user: String, now: Int64) in
            try await store.spendPhoneCode(
                phone: phone, codeHash: hash, now: now, maximumAttempts: 3, token: refreshToken(for: user, now: now, policy: .named))
        }
        guard case .wrong(attemptsLeft: 2) = try await spend("wrong", "p1", 1_020) else {
            Issue.record("a wrong code was not counted"); return
        }
        guard case .signedIn(let user) = try await spend("right", "p1", 1_021) else {
            Issue.record("the right code did not sign up"); return
        }
        #expect(user.userID == "p1" && user.isNew)
        guard case .noCode = try await spend("right", "p2", 1_022) else { Issue.record("a spent code signed in again"); return }
        guard case .stored = try await send("second", at: 1_100, in: store) else { Issue.record("a later code was not stored"); return }
        guard case .signedIn(let again) = try await spend("second", "p3", 1_101) else {
            Issue.record("the phone's user could not sign in"); return
        }
        #expect(again.userID == "p1" && !again.isNew)
        #expect(try await store.profile(of: "p1").phone == phone)
    }

    @Test(arguments: Backend.allCases)
    func aCodeIsUsedUpByWrongTriesAndRefusedOnceExpired(backend: Backend) async throws {
        let store = try await backend.store()
        let spend = { (hash: String, now: Int64) in
            try await store.spendPhoneCode(
                phone: phone, codeHash: hash, now: now, maximumAttempts: 2, token: refreshToken(for: "p1", now: now))
        }
        _ = try await send("right", at: 1_000, in: store)
        _ = try await spend("wrong", 1_001)
        _ = try await spend("wrong", 1_002)
        guard case .tooManyAttempts = try await spend("right", 1_003) else {
            Issue.record("the right code worked after every try was used"); return
        }
        _ = try await send("fresh", at: 1_100, in: store)
        guard case .expired = try await spend("fresh", 1_400) else { Issue.record("an expired code signed in"); return }
    }

    @Test(arguments: Backend.allCases)
    func aSenderOverItsLimitIsToldToWaitAndNothingIsSent(backend: Backend) async throws {
        let store = try await backend.store()
        let one = RateLimitHit(key: "sms-address:test", rule: RateLimit(limit: 1, window: 3_600))
        _ = try await send("first", at: 1_000, in: store, limit: one)
        guard case .limited(let wait) = try await send("second", at: 1_100, in: store, limit: one) else {
            Issue.record("a sender over its limit was sent a code"); return
        }
        #expect(wait > 0 && wait <= 3_600)
        #expect(try await store.outbox().count == 1)
    }
}
