import EmbeddedMock
import FlowEngine
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ServiceAPI
import ServiceClient
import Synchronization
import Testing

/// A service that never answers, or answers with an error that is not a ServiceError.
struct Misbehaving: AuthServiceDecorator {
    var hang = false
    let base: any AuthService = InProcessTransport(service: try! OnboardService(database: try! ServiceDatabase.inMemory()))

    func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T {
        if hang { try await Task.sleep(for: .seconds(3600)) }
        throw CocoaError(.fileReadCorruptFile)
    }
}

/// Counts the renewals that reach the service.
final class CountingRefreshes: AuthServiceDecorator, Sendable {
    let base: any AuthService
    let refreshes = Mutex(0)
    init(_ base: any AuthService) { self.base = base }

    func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T {
        if endpoint == .refresh { refreshes.withLock { $0 += 1 } }
        return try await call()
    }
}

@Suite struct OperationRunnerTests {
    /// Renewal is the engine's alone: the runner sends a call with the session it was
    /// given, even an expired one, and never spends the refresh token on its own.
    @Test func theRunnerNeverRenewsOnItsOwn() async throws {
        let mock = try mock()
        let signIn = try await mock.signInAnonymously(flow: "oklah")
        let session = Session(
            userID: signIn.session.userID, accessToken: signIn.session.accessToken, accessExpiresAt: 0,
            refreshToken: signIn.session.refreshToken, refreshExpiresAt: nil, isAnonymous: true, createdAt: 0, lastAuthenticated: 0)
        let counting = CountingRefreshes(mock)
        let runner = OperationRunner(service: counting, flowID: "oklah")
        _ = await runner.run(CallRequest(id: 1, operation: .motivation, session: session, inputs: [:]))
        #expect(counting.refreshes.withLock { $0 } == 0)
        let renewed = try await runner.run(CallRequest(id: 2, operation: .refreshSession, session: session, inputs: [:])).get()
        #expect(counting.refreshes.withLock { $0 } == 1, "only when the engine asks")
        #expect(renewed.session?.userID == session.userID)
    }

    /// Issue 31: a stranger's wrong passwords locked the owner out. The device keeps the
    /// token its sign-up was given (sealed, beside the flow's state, kept across sign-out)
    /// and sends it with its log-in: the account is locked for strangers, not for it.
    @Test func aDeviceThatSignedUpLogsInWhileStrangersAreLockedOut() async throws {
        // bcrypt at its lowest cost: a dozen sign-ins should not hold the test pool's threads.
        var settings = ServiceSettings()
        settings.bcryptCost = 4
        let mock = InProcessTransport(service: try OnboardService(database: try ServiceDatabase.inMemory(), settings: settings))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-device-\(UUID().uuidString)").path
        let store = StateStore(stateDirectory: folder, flowID: "babybasics")
        let runner = OperationRunner(
            service: mock, flowID: "babybasics", sessionFile: store.sessionFile, device: DeviceSetup(folder: store.folder))
        let account = ["email": "Device.Owner@example.org", "password": "the right one", "name": "Do"]
        _ = try await runner.run(CallRequest(id: 1, operation: .register, session: nil, inputs: account)).get()
        let kept = try String(contentsOfFile: store.folder + "/device-tokens.json", encoding: .utf8)
        #expect(kept.contains("sealedTokens") && !kept.contains("dt1."), "sealed: \(kept)")
        for attempt in 0..<10 {
            _ = try? await mock.login(
                flow: "babybasics", email: "device.owner@example.org", password: "guess \(attempt)", guestAccessToken: nil)
        }
        await #expect(throws: ServiceError.self) {
            _ = try await mock.login(
                flow: "babybasics", email: "device.owner@example.org", password: "the right one", guestAccessToken: nil)
        }
        let login = ["email": "device.owner@example.org ", "password": "the right one"]
        let back = try await runner.run(CallRequest(id: 2, operation: .logIn, session: nil, inputs: login)).get()
        #expect(back.session?.isAnonymous == false)
    }

    /// Issue 30: killed while linking, the client kept a guest's session though the
    /// service had linked the email ("Guest User / Account Status: Signed In / Email: Not
    /// Set"). Loading the account asks the service, and the session is renewed to match.
    @Test func aLinkWhoseAnswerWasLostIsFoundWhenTheAccountLoads() async throws {
        let mock = try mock()
        let runner = OperationRunner(service: mock, flowID: "rucktracker")
        let guest = try #require(
            try await runner.run(CallRequest(id: 1, operation: .signInAnonymously, session: nil, inputs: [:])).get().session)
        // The link reached the service; its answer never reached the client.
        _ = try await mock.linkEmail(
            flow: "rucktracker", accessToken: guest.accessToken, email: "lost@example.org", password: "long enough")

        let loaded = try await runner.run(CallRequest(id: 2, operation: .loadAccount, session: guest, inputs: [:])).get()
        #expect(loaded.values["email"] == .text("lost@example.org"))
        #expect(loaded.session?.userID == guest.userID)
        #expect(loaded.session?.isAnonymous == false, "the session now says what the service says")
    }

    /// A guest unused for a day leaves with an expired access token: it is renewed for
    /// the log-in, so its Pro still follows the person into the account.
    @Test func aGuestWhoseAccessTokenExpiredStillTakesItsProToTheAccount() async throws {
        let mock = try mock()
        _ = try await mock.register(flow: "rucktracker", name: "So", email: "so@example.com", password: "march on!")
        let runner = OperationRunner(service: mock, flowID: "rucktracker")
        var guest = try #require(
            try await runner.run(CallRequest(id: 1, operation: .signInAnonymously, session: nil, inputs: [:])).get().session)
        _ = try await runner.run(CallRequest(id: 2, operation: .purchasePro, session: guest, inputs: [:])).get()
        guest.accessExpiresAt = 0
        let loggedIn = try await runner.run(
            CallRequest(
                id: 3, operation: .logIn, session: guest, inputs: ["email": "so@example.com", "password": "march on!"])
        ).get()
        #expect(loggedIn.values["pro"] == .text("true"))
    }

    func mock() throws -> InProcessTransport {
        InProcessTransport(service: try OnboardService(database: try ServiceDatabase.inMemory()))
    }

    @Test func signInFillsTheSessionAndTheNames() async throws {
        let runner = OperationRunner(service: try mock(), flowID: "oklah")
        let result = await runner.run(CallRequest(id: 1, operation: .signInAnonymously, session: nil, inputs: [:]))
        let output = try result.get()
        #expect(output.session?.isAnonymous == true)
        #expect(output.values["name_options"]?.list?.count == 3)
    }

    @Test func aServiceThatNeverAnswersTimesOut() async {
        let runner = OperationRunner(service: Misbehaving(hang: true), flowID: "x", timeout: .milliseconds(200))
        let result = await runner.run(CallRequest(id: 1, operation: .health, session: nil, inputs: [:]))
        #expect(result == .failure(ServiceFailure(code: "timeout", message: "The service did not answer in time.")))
    }

    @Test func anUnexpectedErrorBecomesAServerErrorNotACrash() async {
        let runner = OperationRunner(service: Misbehaving(), flowID: "x")
        let result = await runner.run(CallRequest(id: 1, operation: .health, session: nil, inputs: [:]))
        guard case .failure(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(failure.code == "server_error")
    }

    @Test func anOperationThatNeedsASessionFailsWithoutOne() async throws {
        let runner = OperationRunner(service: try mock(), flowID: "oklah")
        let result = await runner.run(CallRequest(id: 1, operation: .motivation, session: nil, inputs: [:]))
        guard case .failure(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(failure.code == "unauthorized")
    }
}

extension OperationRunnerTests {
    @Test func aRuckShowsTheDistanceAsTyped() {
        #expect(OperationRunner.describeRuck(kilometres: "5.5", minutes: "60") == "5.5 km in 60 min")
        // Issue 32: "5.5 km" beside "10.0 km"; a whole distance reads as one.
        #expect(OperationRunner.describeRuck(kilometres: "05.50", minutes: "59.6") == "5.5 km in 59.6 min")
        #expect(OperationRunner.describeRuck(kilometres: "10.04", minutes: "90") == "10.04 km in 90 min")
        #expect(OperationRunner.describeRuck(kilometres: "10.0", minutes: "90.") == "10 km in 90 min")
        #expect(OperationRunner.describeRuck(kilometres: ".001", minutes: "1") == "0.001 km in 1 min", "not 0.0 km")
        // Issue 47: rounded, these showed what the rules refuse: 0 min, "500. km", "0. km".
        #expect(OperationRunner.describeRuck(kilometres: "499.9999", minutes: "0.4") == "499.9999 km in 0.4 min")
        #expect(OperationRunner.describeRuck(kilometres: "0.0001", minutes: "1") == "0.0001 km in 1 min")
    }
}

/// Does the call, then loses its first reply (as a timeout would).
final class LosingFirstWrite: AuthServiceDecorator, Sendable {
    let base: any AuthService
    let lost = Mutex(false)
    init(_ base: any AuthService) { self.base = base }

    func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T {
        let result = try await call()
        if endpoint == .addRecordItem,
            !lost.withLock({
                let was = $0; $0 = true; return was
            })
        {
            throw ServiceError(.timeout, "The reply was lost.")
        }
        return result
    }
}

extension OperationRunnerTests {
    /// Try Again after a lost reply sends the same key: the ruck is on the service once.
    @Test func aRuckWhoseReplyWasLostIsLoggedOnce() async throws {
        let mock = try mock()
        let guest = try await mock.signInAnonymously(flow: "rucktracker").session
        let session = Session(
            userID: guest.userID, accessToken: guest.accessToken, accessExpiresAt: guest.accessExpiresAt,
            refreshToken: guest.refreshToken, refreshExpiresAt: nil, isAnonymous: true, createdAt: 0, lastAuthenticated: 0)
        let runner = OperationRunner(service: LosingFirstWrite(mock), flowID: "rucktracker")
        var request = CallRequest(id: 1, operation: .logRuck, session: session, inputs: ["distance_km": "5", "duration_min": "60"])
        request.idempotencyKey = "install-1-log-ruck-0001"
        let first = await runner.run(request)
        #expect((try? first.get()) == nil, "the first reply was lost")
        _ = try await runner.run(request).get()
        let rucks = try await mock.records(accessToken: session.accessToken)["rucks"]
        guard case .list(let entries)? = rucks else { Issue.record("no rucks"); return }
        #expect(entries.count == 1, "\(entries)")
    }
}

extension OperationRunnerTests {
    /// Issue 34: a sign-in approved in a browser, as ABBY's device screen makes it: the
    /// codes to show, a poll that waits, then (approved on the verification page's side)
    /// the session and the profile, the spent device code forgotten.
    @Test func aSignInApprovedInTheBrowserReachesTheRunnerOnItsNextPoll() async throws {
        let clock = AdjustableClock()
        let mock = InProcessTransport(service: try OnboardService(database: try ServiceDatabase.inMemory(), clock: clock))
        let runner = OperationRunner(service: mock, flowID: "abby")
        let started = try await runner.run(CallRequest(id: 1, operation: .startSocialDevice, session: nil, inputs: ["provider": "google"]))
            .get()
        let code = try #require(started.values["user_code"]?.text)
        let device = try #require(started.values["device_code"]?.text)
        #expect(started.values["verification_uri_complete"]?.text == "MOCK://LOCAL/D/" + code)
        #expect(started.values["poll_interval"]?.text == "5")
        let waiting = await runner.run(CallRequest(id: 2, operation: .pollSocialDevice, session: nil, inputs: ["device_code": device]))
        #expect(waiting.failure?.code == "authorization_pending")
        #expect(
            try await mock.service.finishDeviceSignIn(userCode: code, identity: DeviceIdentity(subject: "g-ana", email: "ana@example.org")))
        clock.offsetSeconds += 5
        let signedIn = try await runner.run(CallRequest(id: 3, operation: .pollSocialDevice, session: nil, inputs: ["device_code": device]))
            .get()
        #expect(signedIn.session?.isAnonymous == false)
        #expect(signedIn.values["is_new_user"] == .text("true"))
        #expect(signedIn.values["device_code"] == .text(""), "spent, and not kept")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

/// Every call takes a while to answer, as `--fault slow=…` makes it.
struct SlowService: AuthServiceDecorator {
    let base: any AuthService
    var delay: Duration = .milliseconds(300)

    func around<T: Sendable>(_ endpoint: Endpoint, _ call: @Sendable () async throws -> T) async throws -> T {
        let result = try await call()
        try await Task.sleep(for: delay)
        return result
    }
}

extension OperationRunnerTests {
    /// Issue 45: two devices signed in to one account save a ruck at the same moment on a
    /// slow service. Both rucks are on the account, and each device's list shows its own.
    @Test func twoDevicesSavingAtOnceKeepBothRucks() async throws {
        let mock = try mock()
        let guest = try await mock.signInAnonymously(flow: "rucktracker").session
        let linked = try await mock.linkEmail(
            flow: "rucktracker", accessToken: guest.accessToken, email: "d@example.org", password: "long enough")
        let other = try await mock.login(flow: "rucktracker", email: "d@example.org", password: "long enough")
        func session(_ issued: IssuedSession) -> Session {
            Session(
                userID: issued.userID, accessToken: issued.accessToken, accessExpiresAt: issued.accessExpiresAt,
                refreshToken: issued.refreshToken, refreshExpiresAt: nil, isAnonymous: false, createdAt: 0, lastAuthenticated: 0)
        }
        let slow = SlowService(base: mock)
        let first = OperationRunner(service: slow, flowID: "rucktracker")
        let second = OperationRunner(service: slow, flowID: "rucktracker")
        var one = CallRequest(id: 1, operation: .logRuck, session: session(linked), inputs: ["distance_km": "1.1", "duration_min": "11"])
        one.idempotencyKey = "device-one-log-ruck-0001"
        var two = CallRequest(id: 1, operation: .logRuck, session: session(other), inputs: ["distance_km": "2.2", "duration_min": "22"])
        two.idempotencyKey = "device-two-log-ruck-0001"
        async let a = first.run(one)
        async let b = second.run(two)
        let (shownOnOne, shownOnTwo) = (try await a.get().values["rucks"]?.list ?? [], try await b.get().values["rucks"]?.list ?? [])
        guard case .list(let kept)? = try await mock.records(accessToken: linked.accessToken)["rucks"] else {
            Issue.record("no rucks"); return
        }
        #expect(kept.count == 2 && kept.contains { $0.contains("1.1 km") } && kept.contains { $0.contains("2.2 km") }, "\(kept)")
        #expect(shownOnOne.contains { $0.contains("1.1 km") }, "the first device shows its own ruck: \(shownOnOne)")
        #expect(shownOnTwo.contains { $0.contains("2.2 km") }, "\(shownOnTwo)")
    }
}

extension OperationRunnerTests {
    /// Issue 45: ABBY, step 6 saved, Esc back to it, Ethnicity changed, Esc to step 5,
    /// Continue: step 6 showed the old value again, because saving step 5 brought back
    /// the service's whole profile. A save answers with what it saved, and nothing else.
    @Test func savingOneStepLeavesARevisedAnswerOnAnotherAlone() async throws {
        let mock = try mock()
        let guest = try await mock.signInAnonymously(flow: "abby").session
        let session = Session(
            userID: guest.userID, accessToken: guest.accessToken, accessExpiresAt: guest.accessExpiresAt,
            refreshToken: guest.refreshToken, refreshExpiresAt: nil, isAnonymous: true, createdAt: 0, lastAuthenticated: 0)
        let runner = OperationRunner(service: mock, flowID: "abby")
        var stepSix = CallRequest(
            id: 1, operation: .saveProfile, session: session, inputs: [:], fields: ["ethnicity": .text("Prefer not to say")])
        stepSix.idempotencyKey = nil
        _ = try await runner.run(stepSix).get()
        let stepFive = CallRequest(id: 2, operation: .saveProfile, session: session, inputs: [:], fields: ["height_cm": .text("170")])
        let answer = try await runner.run(stepFive).get()
        #expect(answer.values["ethnicity"] == nil, "step 6's answer is the person's, not the service's copy: \(answer.values)")
        #expect(answer.values["height_cm"] == .text("170"))
    }
}
