import OnboardService
import PostgresStore
import SQLiteStore
import ServiceAPI
import Testing

/// Issue 36's write path: a guest made in one statement (its names the first free ones of a
/// draw), the invite limits counted at once. The same rules as before, on either store.
@Suite struct WritePathContractTests {
    static let stores = ["sqlite", "postgres"]

    func service(_ store: String, _ settings: ServiceSettings) async throws -> OnboardService {
        guard store == "postgres" else {
            return try OnboardService(database: try ServiceDatabase.open(path: temporaryPath("write-path.sqlite")), settings: settings)
        }
        let postgres = try await PostgresSubject.store()
        return try OnboardService(store: postgres, keys: try await ServiceKeys.stored(in: postgres), settings: settings)
    }

    /// BR-ONB-004: three names no one else was offered, no word twice in one offer, kept in
    /// the order offered — with guests made eight at a time, racing for the same names.
    @Test(arguments: stores) func noNameIsOfferedTwiceWhenGuestsRace(store: String) async throws {
        var settings = contractSettings
        settings.signInPerAddress = RateLimit(limit: 100_000, window: 60)
        let service = try await service(store, settings)
        var offers: [[String]] = []
        for _ in 0..<40 {
            try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<8 { group.addTask { try await service.signInAnonymously(policy: .anonymous).nameOptions } }
                for try await names in group { offers.append(names) }
            }
        }
        for names in offers {
            let words = names.map { $0.split(separator: " ") }
            #expect(names.count == 3)
            #expect(Set(words.map { $0[0] }).count == 3 && Set(words.map { $0[1] }).count == 3, "\(names)")
        }
        let all = offers.flatMap(\.self)
        #expect(Set(all).count == 960, "a name offered twice among \(all.count)")
        // Plain pairs while they last (1,600 of them), then numbered ones.
        #expect(offers.prefix(20).flatMap(\.self).allSatisfy { $0.split(separator: " ").count == 2 })

        let guest = try await service.signInAnonymously(policy: .anonymous)
        let profile = try await service.profile(accessToken: guest.session.accessToken)
        #expect(profile.fields[Profile.nameOptionsField] == .list(guest.nameOptions), "offered in the order the sign-in said them")
    }

    /// `count` invites from a new account, to as many babies (one each: a second invite to
    /// a baby already shared with the redeemer spends nothing).
    static func invites(_ count: Int, from email: String, on service: OnboardService) async throws -> (children: [Child], codes: [String]) {
        let owner = try await service.register(name: "Jo", email: email, password: "long enough", policy: .anonymous)
        var children: [Child] = [], codes: [String] = []
        for index in 0..<count {
            let child = try await service.addChild(accessToken: owner.accessToken, name: "Robin \(index + 1)", birthDate: nil)
            children.append(child)
            codes.append(try await service.createInvite(accessToken: owner.accessToken, childID: child.id).code)
        }
        return (children, codes)
    }

    /// The address and the account limits are both counted by one redemption (each attempt
    /// counts against both): a person past either is refused; others are not.
    @Test(arguments: stores) func anInviteCountsAgainstTheAddressAndTheAccount(store: String) async throws {
        var settings = contractSettings
        settings.invitesPerAddress = RateLimit(limit: 2, window: 3600)
        let service = try await service(store, settings)
        let (_, codes) = try await Self.invites(5, from: "jo.limits@example.org", on: service)
        let ana = try await service.signInAnonymously(policy: .anonymous).session.accessToken
        let ben = try await service.signInAnonymously(policy: .anonymous).session.accessToken

        _ = try await service.acceptInvite(accessToken: ana, code: codes[0], client: "10.0.0.1")
        _ = try await service.acceptInvite(accessToken: ana, code: codes[1], client: "10.0.0.2")
        // Ana's third from a new address: her account's limit.
        await #expect(throws: ServiceError.self) {
            _ = try await service.acceptInvite(accessToken: ana, code: codes[2], client: "10.0.0.3")
        }
        _ = try await service.acceptInvite(accessToken: ben, code: codes[2], client: "10.0.0.1")
        // Ben's second from 10.0.0.1, its third: the address's limit.
        do {
            _ = try await service.acceptInvite(accessToken: ben, code: codes[3], client: "10.0.0.1")
            Issue.record("a redemption past the address's limit went through")
        } catch let error as ServiceError {
            #expect(error.code == .rateLimited)
            #expect(error.retryAfter ?? 0 > 0)
        }
        let cy = try await service.signInAnonymously(policy: .anonymous).session.accessToken
        _ = try await service.acceptInvite(accessToken: cy, code: codes[3], client: "10.0.0.4")
    }

    /// ASVS 3.3.1: a session that was ended redeems nothing, and its attempts are
    /// refused before they count against the address or the account (the session's check
    /// and the count are one round trip on PostgreSQL), with an idempotency key or without.
    @Test(arguments: stores) func anEndedSessionRedeemsNothingAndCountsAgainstNothing(store: String) async throws {
        var settings = contractSettings
        settings.invitesPerAddress = RateLimit(limit: 2, window: 3600)
        let service = try await service(store, settings)
        let (children, codes) = try await Self.invites(3, from: "jo.ended@example.org", on: service)
        let ended = try await service.signInAnonymously(policy: .anonymous).session
        try await service.logout(refreshToken: ended.refreshToken)

        for key in [nil, "ended-session-key-0001", nil] {
            do {
                _ = try await service.acceptInvite(accessToken: ended.accessToken, code: codes[0], client: "10.0.0.9", idempotencyKey: key)
                Issue.record("an ended session redeemed an invite")
            } catch let error as ServiceError {
                #expect(error.code == .unauthorized)
            }
        }
        // The address's two redemptions are all still there for a live session.
        let live = try await service.signInAnonymously(policy: .anonymous).session.accessToken
        #expect(try await service.acceptInvite(accessToken: live, code: codes[0], client: "10.0.0.9").child.id == children[0].id)
        #expect(try await service.acceptInvite(accessToken: live, code: codes[1], client: "10.0.0.9").child.id == children[1].id)
    }
}
