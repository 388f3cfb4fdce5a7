import Foundation
import OnboardService
import ServiceAPI
import ServiceClient
import Testing

/// One suite, both transports and both stores: the embedded mock in process, and HTTP to
/// a real onboard-server on a loopback port, each over SQLite and over PostgreSQL. Same
/// inputs, same outcomes, every error code.
@Suite struct ContractTests {
    /// The embedded mock and onboard-server, each on SQLite and on PostgreSQL.
    static let transports = ["in-process", "http", "in-process-postgres", "http-postgres"]

    func expectError(
        _ code: ServiceError.Code, _ message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("expected \(code.rawValue), got success", sourceLocation: sourceLocation)
        } catch let error as ServiceError {
            #expect(error.code == code, sourceLocation: sourceLocation)
            if let message { #expect(error.message == message, sourceLocation: sourceLocation) }
        } catch {
            Issue.record("expected a ServiceError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: transports) func health(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        #expect(try await subject.service.health() == "ok")
    }

    @Test(arguments: transports) func anonymousSignInOffersThreeNamesAndAGuestSessionThatNeverExpires(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let signIn = try await subject.service.signInAnonymously(flow: "oklah")
        #expect(signIn.nameOptions.count == 3)
        #expect(signIn.session.isAnonymous)
        #expect(signIn.session.refreshExpiresAt == nil)
        #expect(signIn.session.accessExpiresAt - signIn.session.issuedAt == 24 * 3600)
        await expectError(.invalidInput, "Please pick one of the names offered to you.") {
            _ = try await subject.service.chooseName(accessToken: signIn.session.accessToken, name: "Not Offered")
        }
        // Until one is chosen, the profile holds the names offered, in the same order: a
        // device that lost its progress offers the same three again (issue 30 §3).
        let unnamed = try await subject.service.profile(accessToken: signIn.session.accessToken)
        #expect(unnamed.displayName == nil)
        #expect(unnamed.fields[Profile.nameOptionsField] == .list(signIn.nameOptions))
        let profile = try await subject.service.chooseName(accessToken: signIn.session.accessToken, name: signIn.nameOptions[2])
        #expect(profile.fields[Profile.nameOptionsField] == nil, "no offers once a name is chosen")
        #expect(profile.displayName == signIn.nameOptions[2])
        #expect(profile.userID == signIn.session.userID)
        #expect(try await subject.service.profile(accessToken: signIn.session.accessToken).displayName == signIn.nameOptions[2])
        #expect(!(try await subject.service.motivation(accessToken: signIn.session.accessToken)).isEmpty)
    }

    @Test(arguments: transports) func anExpiredAccessTokenIsRejectedAndRefreshRenewsIt(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let session = try await subject.service.signInAnonymously(flow: "oklah").session
        try await subject.advanceClock(25 * 3600)
        await expectError(.unauthorized) { _ = try await subject.service.motivation(accessToken: session.accessToken) }
        let renewed = try await subject.service.refresh(refreshToken: session.refreshToken)
        #expect(renewed.userID == session.userID)
        #expect(!(try await subject.service.motivation(accessToken: renewed.accessToken)).isEmpty)
    }

    @Test(arguments: transports) func refreshRotationHasAGraceWindowAndReuseRevokesTheFamily(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let first = try await subject.service.signInAnonymously(flow: "oklah").session
        let second = try await subject.service.refresh(refreshToken: first.refreshToken)
        _ = try await subject.service.refresh(refreshToken: first.refreshToken)
        try await subject.advanceClock(30)
        await expectError(.unauthorized) { _ = try await subject.service.refresh(refreshToken: first.refreshToken) }
        await expectError(.unauthorized) { _ = try await subject.service.refresh(refreshToken: second.refreshToken) }
        // Issue 31 (ASVS 3.3.1): the revoked family's access tokens stop at once too, not a
        // day later; the thief is left nothing.
        await expectError(.unauthorized) { _ = try await subject.service.motivation(accessToken: second.accessToken) }
        await expectError(.unauthorized) { _ = try await subject.service.motivation(accessToken: first.accessToken) }
    }

    @Test(arguments: transports) func logoutEndsTheSession(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let session = try await subject.service.signInAnonymously(flow: "oklah").session
        let other = try await subject.service.refresh(
            refreshToken: try await subject.service.signInAnonymously(flow: "oklah").session.refreshToken)
        #expect(!(try await subject.service.motivation(accessToken: session.accessToken)).isEmpty)
        try await subject.service.logout(refreshToken: session.refreshToken)
        await expectError(.unauthorized) { _ = try await subject.service.refresh(refreshToken: session.refreshToken) }
        // Issue 31 (ASVS 3.3.1): its access token ends with it; another session goes on.
        await expectError(.unauthorized) { _ = try await subject.service.motivation(accessToken: session.accessToken) }
        #expect(!(try await subject.service.motivation(accessToken: other.accessToken)).isEmpty)
    }

    @Test(arguments: transports) func registerValidatesAndRefusesATakenEmail(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let session = try await subject.service.register(
            flow: "babybasics", name: "Ada", email: "Ada@Example.org", password: "correct horse")
        #expect(!session.isAnonymous)
        #expect(session.refreshExpiresAt == session.issuedAt + 30 * 86_400)
        let profile = try await subject.service.profile(accessToken: session.accessToken)
        #expect(profile.email == "ada@example.org")
        #expect(profile.displayName == "Ada")
        await expectError(.conflict, "An account with this email already exists. Try logging in.") {
            _ = try await subject.service.register(flow: "babybasics", name: "Ada", email: "ada@example.org", password: "another one")
        }
        await expectError(.invalidInput, "Password must be at least 8 characters.") {
            _ = try await subject.service.register(flow: "babybasics", name: "Bo", email: "bo@example.org", password: "short")
        }
        await expectError(.invalidInput, "Password must be at most 72 bytes long.") {
            _ = try await subject.service.register(
                flow: "babybasics", name: "Bo", email: "bo@example.org", password: String(repeating: "é", count: 40))
        }
        await expectError(.invalidInput, "Your name can be at most 100 characters.") {
            _ = try await subject.service.register(
                flow: "babybasics", name: String(repeating: "n", count: 101), email: "n@example.org", password: "long enough")
        }
        await expectError(.invalidInput, "Please enter a valid email address.") {
            _ = try await subject.service.register(flow: "babybasics", name: "Bo", email: "bo@", password: "long enough")
        }
    }

    @Test(arguments: transports) func loginFailsAlikeForUnknownEmailAndWrongPasswordThenIsRateLimited(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let registered = try await subject.service.register(
            flow: "babybasics", name: "Ada", email: "ada@example.org", password: "correct horse")
        let loggedIn = try await subject.service.login(flow: "babybasics", email: "ADA@example.org ", password: "correct horse")
        #expect(loggedIn.userID == registered.userID)
        await expectError(.unauthorized, "Invalid email or password.") {
            _ = try await subject.service.login(flow: "babybasics", email: "nobody@example.org", password: "correct horse")
        }
        for _ in 0..<3 {
            await expectError(.unauthorized, "Invalid email or password.") {
                _ = try await subject.service.login(flow: "babybasics", email: "ada@example.org", password: "wrong horse")
            }
        }
        do {
            _ = try await subject.service.login(flow: "babybasics", email: "ada@example.org", password: "correct horse")
            Issue.record("the fourth attempt after three failures should be rate limited")
        } catch let error as ServiceError {
            #expect(error.code == .rateLimited)
            #expect((error.retryAfter ?? 0) > 0)
        }
    }

    /// Issue 31 (ASVS 2.1.7): the most common passwords are refused with the reason, on
    /// sign-up and when a guest adds an email; others of the same length are fine.
    @Test(arguments: transports) func theMostCommonPasswordsAreRefused(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        for (index, common) in ["12345678", "password", "aaaaaaaa", "Password1", "iloveyou"].enumerated() {
            await expectError(
                .invalidInput, "This password is one of the most common, so it would be guessed first. Please choose another."
            ) {
                _ = try await subject.service.register(
                    flow: "babybasics", name: "Co", email: "common\(index)@example.org", password: common)
            }
        }
        let guest = try await subject.service.signInAnonymously(flow: "rucktracker").session
        await expectError(.invalidInput, "This password is one of the most common, so it would be guessed first. Please choose another.") {
            _ = try await subject.service.linkEmail(
                flow: "rucktracker", accessToken: guest.accessToken, email: "common@example.org", password: "qwertyuiop")
        }
        _ = try await subject.service.register(flow: "babybasics", name: "Co", email: "uncommon@example.org", password: "tandem kettle")
    }

    @Test(arguments: transports) func linkingAnEmailKeepsTheAnonymousUsersId(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let guest = try await subject.service.signInAnonymously(flow: "rucktracker").session
        let linked = try await subject.service.linkEmail(
            flow: "rucktracker", accessToken: guest.accessToken, email: "ruck@example.org", password: "march on!")
        #expect(linked.userID == guest.userID)
        #expect(!linked.isAnonymous)
        let profile = try await subject.service.profile(accessToken: linked.accessToken)
        #expect(profile.email == "ruck@example.org")
        #expect(!profile.isAnonymous)
        let again = try await subject.service.login(flow: "rucktracker", email: "ruck@example.org", password: "march on!")
        #expect(again.userID == guest.userID)
        let other = try await subject.service.signInAnonymously(flow: "rucktracker").session
        await expectError(.conflict, "An account with this email already exists. Try logging in.") {
            _ = try await subject.service.linkEmail(
                flow: "rucktracker", accessToken: other.accessToken, email: "ruck@example.org", password: "march on!")
        }
        // Issue 31: the guest-era refresh token, which never expired, takes the named
        // account's lifetime once the account has a password.
        let guestEra = try await subject.service.refresh(refreshToken: guest.refreshToken)
        #expect(guestEra.refreshExpiresAt != nil, "no longer a never-expiring guest token")
        try await subject.advanceClock(31 * 86_400)
        await expectError(.unauthorized) { _ = try await subject.service.refresh(refreshToken: guestEra.refreshToken) }
    }

    @Test(arguments: transports) func aForgedOrMissingTokenIsRejected(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        await expectError(.unauthorized) { _ = try await subject.service.profile(accessToken: "eyJhbGciOiJIUzI1NiJ9.e30.forged") }
        await expectError(.unauthorized) { _ = try await subject.service.refresh(refreshToken: "rt_unknown") }
    }
}
