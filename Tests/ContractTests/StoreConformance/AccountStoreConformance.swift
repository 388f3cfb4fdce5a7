import OnboardService
import ServiceAPI
import Testing

/// `AccountStore`'s promises, held on every backend.
@Suite("AccountStore conformance")
struct AccountStoreConformance {
    @Test(arguments: Backend.allCases)
    func aGuestIsGivenItsNamesOnceAndTheSameIdGetsTheSameNamesAndANewSession(backend: Backend) async throws {
        let store = try await backend.store()
        let (names, first) = try await guest("g1", in: store)
        #expect(names.count == 3 && Set(names).count == 3)
        let again = refreshToken(for: "g1", now: 1_001)
        #expect(try await store.createGuest("g1", at: 1_001, names: NameDraw(count: 3), token: again) == names)
        // The first session ended; the new one stands.
        guard case .rejected = try await store.rotateRefreshToken(hash: first.hash, now: 1_002, grace: 60, successorHash: "s1") else {
            Issue.record("the lost answer's session still rotates"); return
        }
        guard case .granted = try await store.rotateRefreshToken(hash: again.hash, now: 1_002, grace: 60, successorHash: "s2") else {
            Issue.record("the repeat's session does not rotate"); return
        }
    }

    @Test(arguments: Backend.allCases)
    func aNameOfferedToOneGuestIsNeverOfferedToAnother(backend: Backend) async throws {
        let store = try await backend.store()
        var offered: [String] = []
        for index in 0..<40 { offered += try await guest("g\(index)", in: store).names }
        #expect(offered.count == 120)
        #expect(Set(offered).count == offered.count)
    }

    @Test(arguments: Backend.allCases)
    func onlyANameOfferedToTheGuestCanBeChosenAndTheProfileCarriesTheOffersUntilThen(backend: Backend) async throws {
        let store = try await backend.store()
        let names = try await guest("g1", in: store).names
        let other = try await guest("g2", in: store).names
        #expect(try await store.profile(of: "g1").offeredNames == names)
        #expect(try await store.chooseOfferedName(other[0], for: "g1") == nil)
        let chosen = try #require(try await store.chooseOfferedName(names[1], for: "g1"))
        #expect(chosen.displayName == names[1])
        #expect(!chosen.wantsOfferedNames)
        #expect(Profile(try await store.profile(of: "g1")).fields[Profile.nameOptionsField] == nil)
    }

    @Test(arguments: Backend.allCases)
    func anEmailHasOneAccountAndItsCredentialsAreRead(backend: Backend) async throws {
        let store = try await backend.store()
        try await account("a1", email: "ann@example.com", in: store)
        #expect(
            try await store.createAccount(
                "a2", at: 1_000, email: "ann@example.com", passwordHash: "h", name: "Ann", token: refreshToken(for: "a2")) == false)
        let credentials = try #require(try await store.credentials(email: "ann@example.com"))
        #expect(credentials.userID == "a1" && credentials.passwordHash == "hash" && credentials.createdAt == 1_000)
        #expect(try await store.credentials(email: "nobody@example.com") == nil)
        #expect(try await store.profile(of: "a1").name == "Johnny")
    }

    @Test(arguments: Backend.allCases)
    func linkingAnEmailNamesAGuestOnceAndNeverTakesAnothersEmail(backend: Backend) async throws {
        let store = try await backend.store()
        try await guest("g1", in: store, now: 500)
        try await guest("g2", in: store)
        try await account("a1", email: "taken@example.com", in: store)
        let token = { (user: String) in refreshToken(for: user, now: 1_100, policy: .named) }
        guard
            case .linked(let createdAt) = try await store.linkEmail(
                to: "g1", email: "g1@example.com", passwordHash: "h", token: token("g1"))
        else {
            Issue.record("a guest could not link a free email"); return
        }
        #expect(createdAt == 500)
        guard case .alreadyNamed = try await store.linkEmail(to: "g1", email: "again@example.com", passwordHash: "h", token: token("g1"))
        else {
            Issue.record("a named account linked again"); return
        }
        guard case .emailTaken = try await store.linkEmail(to: "g2", email: "taken@example.com", passwordHash: "h", token: token("g2"))
        else {
            Issue.record("a guest took another account's email"); return
        }
        guard case .noSuchUser = try await store.linkEmail(to: "nobody", email: "n@example.com", passwordHash: "h", token: token("nobody"))
        else {
            Issue.record("an unknown user linked an email"); return
        }
        #expect(try await store.profile(of: "g1").isAnonymous == false)
    }

    @Test(arguments: Backend.allCases)
    func aSessionIsLiveUntilItsFamilyIsRevokedOrItsAccountIsGone(backend: Backend) async throws {
        let store = try await backend.store()
        let token = try await guest("g1", in: store).token
        #expect(try await store.sessionIsLive(userID: "g1", family: token.family))
        #expect(try await store.sessionIsLive(userID: "g1", family: nil))
        #expect(try await store.sessionIsLive(userID: "nobody", family: nil) == false)
        try await store.revokeFamily(ofTokenHash: token.hash, now: 1_001)
        #expect(try await store.sessionIsLive(userID: "g1", family: token.family) == false)
    }

    @Test(arguments: Backend.allCases)
    func anIDTokenSignsInOnceAndAProvidersSubjectIsOneAccount(backend: Backend) async throws {
        let store = try await backend.store()
        func signIn(_ tokenID: String, as userID: String, email: String? = "sam@example.com") async throws -> SignedInUser? {
            try await store.socialUser(
                tokenID: tokenID, tokenExpiry: 2_000, provider: "google", subject: "subject-1", email: email, now: 1_000,
                token: refreshToken(for: userID, policy: .named))
        }
        let first = try #require(try await signIn("id-1", as: "s1"))
        #expect(first.userID == "s1" && first.isNew && first.createdAt == 1_000)
        #expect(try await signIn("id-1", as: "s2") == nil)
        let again = try #require(try await signIn("id-2", as: "s3"))
        #expect(again.userID == "s1" && !again.isNew)
        #expect(try await store.profile(of: "s1").email == "sam@example.com")
    }
}
