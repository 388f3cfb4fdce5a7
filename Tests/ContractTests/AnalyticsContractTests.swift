import EmbeddedMock
import CivilCalendar
import Foundation
import OnboardServer
import OnboardService
import SQLiteStore
import ServiceAPI
import ServiceClient
import Testing
import TestSupport

/// Issue 35: analytics delivered to the service, kept once by event id, forgotten on
/// request, and read back as a funnel, on both stores, in process and over HTTP.
@Suite struct AnalyticsContractTests {
    static let adminToken = "test-admin-token-0123456789abcdef0123456789"
    static let start: Int64 = Int64(Date().timeIntervalSince1970 * 1000) - 3_600_000

    /// A service that takes events, and its funnel as the operator reads it.
    struct Subject {
        let service: any AuthService
        let funnel: @Sendable (String, Bool) async throws -> FunnelReport
        let server: RunningServer?

        static func make(_ kind: String) async throws -> Subject {
            switch kind {
            case "in-process", "in-process-postgres":
                let service =
                    kind == "in-process"
                    ? try OnboardService(database: ServiceDatabase.open(path: temporaryPath("mock.sqlite")), settings: contractSettings)
                    : try await postgresService()
                return Subject(
                    service: InProcessTransport(service: service),
                    funnel: { flow, byVersion in try await service.funnel(flow: flow, since: 0, byVersion: byVersion) }, server: nil)
            default:
                let server = try await RunningServer.start(postgres: kind == "http-postgres", adminToken: AnalyticsContractTests.adminToken)
                let transport = try HTTPTransport(base: server.base, timeout: .seconds(30))
                return Subject(
                    service: transport,
                    funnel: { flow, byVersion in
                        try await transport.funnel(
                            flow: flow, since: "1970-01-01T00:00:00Z", byVersion: byVersion, adminToken: AnalyticsContractTests.adminToken)
                    }, server: server)
            }
        }

        static func postgresService() async throws -> OnboardService {
            let store = try await PostgresSubject.store()
            return try OnboardService(store: store, keys: try await ServiceKeys.stored(in: store), settings: contractSettings)
        }
    }

    static func event(
        _ name: String, person: String, screen: String?, index: Int? = nil, at milliseconds: Int64, flow: String = "oklah",
        properties: [String: FieldValue] = [:]
    ) -> AnalyticsEvent {
        var properties = properties
        if let index { properties["screen_index"] = .number(Double(index)) }
        return AnalyticsEvent(
            id: UUID().uuidString.lowercased(), event: name, flow: flow, screen: screen, userID: person, anonymousID: person,
            timestamp: Instant.internetTime(milliseconds: start + milliseconds), appVersion: "0.1.0", properties: properties)
    }

    /// OKLah's cohort as the issue drives it: 200 people, 30 stop on the privacy screen,
    /// 20 at the name picker, 10 fail once and retry, the rest finish.
    static func cohort() -> [AnalyticsEvent] {
        var events: [AnalyticsEvent] = []
        for number in 0..<200 {
            let person = "local-cohort-\(number)"
            var at = Int64(number) * 10_000
            func view(_ screen: String, _ index: Int, stay: Int64) {
                events.append(event("screen_viewed", person: person, screen: screen, index: index, at: at))
                at += stay
            }
            events.append(event("onboarding_start", person: person, screen: "privacy", at: at))
            view("privacy", 0, stay: 2000 + Int64(number % 10) * 100)
            if number < 30 { continue }
            view("creating", 1, stay: 500)
            if (30..<40).contains(number) {
                events.append(
                    event("onboarding_error", person: person, screen: "creating", at: at, properties: ["error_code": .text("ERR-ONB-001")]))
                view("failed", 2, stay: 4000)
                events.append(
                    event("onboarding_retry", person: person, screen: "failed", at: at, properties: ["attempt_number": .number(1)]))
                view("creating", 1, stay: 500)
            }
            view("pick_name", 3, stay: 3000)
            if (40..<60).contains(number) { continue }
            view("saving_name", 4, stay: 200)
            let duration = at - Int64(number) * 10_000
            view("home", 5, stay: 0)
            events.append(
                event("onboarding_complete", person: person, screen: "home", at: at, properties: ["duration_ms": .number(Double(duration))])
            )
        }
        return events
    }

    /// Every number of the funnel is what was driven; a batch sent again changes none.
    @Test(arguments: ContractTests.transports) func aCohortsFunnelIsWhatWasDriven(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let events = Self.cohort()
        var stored = 0
        for start in stride(from: 0, to: events.count, by: Wire.EventsRequest.maximumEvents) {
            let batch = Array(events[start..<min(events.count, start + Wire.EventsRequest.maximumEvents)])
            stored += try await subject.service.recordEvents(batch).stored
        }
        #expect(stored == events.count)
        // A lost answer: the client sends the same batch again. Kept once.
        let again = try await subject.service.recordEvents(Array(events.prefix(100)))
        #expect(again == Wire.EventsStored(stored: 0, duplicates: 100))

        let report = try await subject.funnel("oklah", false)
        #expect(report.started == 200)
        #expect(report.completed == 150)
        #expect(report.completionRate == 0.75)
        #expect(report.steps.map(\.screen) == ["privacy", "creating", "failed", "pick_name", "saving_name", "home"])
        let steps = Dictionary(uniqueKeysWithValues: report.steps.map { ($0.screen, $0) })
        #expect(steps["privacy"].map { [$0.reached, $0.wentOn, $0.dropped] } == [200, 170, 30])
        #expect(steps["privacy"]?.dropRate == 0.15)
        #expect(steps["creating"].map { [$0.reached, $0.dropped] } == [170, 0])
        #expect(steps["creating"]?.errors == ["ERR-ONB-001": 10])
        #expect(steps["failed"].map { [$0.reached, $0.dropped, $0.retries] } == [10, 0, 10])
        #expect(steps["pick_name"].map { [$0.reached, $0.wentOn, $0.dropped] } == [170, 150, 20])
        #expect(steps["home"].map { [$0.reached, $0.dropped] } == [150, 0])
        // Time on the privacy screen: 2.0 to 2.9 s, for those who left it (the time of
        // someone who stopped there has no end).
        let privacy = (30..<200).map { 2000 + Int64($0 % 10) * 100 }
        #expect(steps["privacy"]?.timeOnScreen == FunnelReport.Timing(privacy))
        #expect(steps["failed"]?.timeOnScreen == FunnelReport.Timing(Array(repeating: 4000, count: 10)))
        #expect(steps["pick_name"]?.timeOnScreen == FunnelReport.Timing(Array(repeating: 3000, count: 150)))
        // Time to complete: 5.7 to 6.6 s, and 4.5 s more after a retry; all within 2 minutes.
        let completions: [Int64] = (30..<200).filter { !(40..<60).contains($0) }.map { number in
            let privacy: Int64 = 2000 + Int64(number % 10) * 100
            let retry: Int64 = (30..<40).contains(number) ? 4500 : 0
            return privacy + 500 + retry + 3000 + 200
        }
        #expect(report.timeToComplete == FunnelReport.Timing(completions))
        #expect(report.timeToComplete?.medianMilliseconds == 6200)
        #expect(report.withinTarget == 150)
    }

    /// Issue 47: a relaunch 25 hours later showed "home … 25h00m": the time between two
    /// launches counted as time on the screen. The arrival that starts a run ends nothing.
    @Test(arguments: ContractTests.transports) func theTimeBetweenTwoLaunchesIsNoTimeOnAScreen(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let person = "local-relaunch"
        let launch: [String: FieldValue] = ["starts_run": .number(1)]
        _ = try await subject.service.recordEvents([
            Self.event("screen_viewed", person: person, screen: "privacy", index: 0, at: 0, properties: launch),
            Self.event("screen_viewed", person: person, screen: "pick_name", index: 3, at: 4000),
            Self.event("screen_viewed", person: person, screen: "pick_name", index: 3, at: 90_000_000, properties: launch),
            Self.event("screen_viewed", person: person, screen: "home", index: 5, at: 90_002_000),
        ])
        let steps = Dictionary(uniqueKeysWithValues: try await subject.funnel("oklah", false).steps.map { ($0.screen, $0) })
        #expect(steps["privacy"]?.timeOnScreen == FunnelReport.Timing([4000]))
        #expect(steps["pick_name"]?.timeOnScreen == FunnelReport.Timing([2000]), "the 25 hours away are not counted")
    }

    /// MIGA's remote config splits the funnel: an A/B comparison.
    @Test(arguments: ["in-process", "http-postgres"]) func theFunnelSplitsByTheFlowVersion(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        var events: [AnalyticsEvent] = []
        for (number, version) in ["1.0", "1.0", "2.0"].enumerated() {
            let person = "local-miga-\(number)"
            let at = Int64(number) * 1000
            events.append(Self.event("screen_viewed", person: person, screen: "welcome", index: 0, at: at, flow: "miga"))
            events.append(
                Self.event(
                    "screen_viewed", person: person, screen: "setup", index: 12, at: at + 500, flow: "miga",
                    properties: ["onboarding_flow_version": .text(version)]))
            if version == "2.0" {
                events.append(
                    Self.event(
                        "hub_unlocked", person: person, screen: "setup", at: at + 900, flow: "miga",
                        properties: ["onboarding_flow_version": .text(version), "duration_ms": .number(900)]))
            }
        }
        _ = try await subject.service.recordEvents(events)
        let report = try await subject.funnel("miga", true)
        #expect(report.started == 3)
        #expect(report.byVersion?["1.0"].map { [$0.started, $0.completed] } == [2, 0])
        #expect(report.byVersion?["2.0"].map { [$0.started, $0.completed] } == [1, 1])
        #expect(try await subject.funnel("oklah", false).started == 0, "another flow's events are not counted")
    }

    /// Anything but the names and small values the engine records is refused, naming the
    /// event and the rule; nothing of the batch is kept.
    @Test(arguments: ["in-process", "http"]) func anEventThatBreaksARuleIsRefusedByItsPlace(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let good = Self.event("screen_viewed", person: "local-a", screen: "privacy", index: 0, at: 0)
        var badID = good
        badID.id = "1"
        var badName = good
        badName.event = "Screen Viewed"
        var listed = good
        listed.properties["names"] = .list(["Ana"])
        var long = good
        long.properties["error_code"] = .text(String(repeating: "x", count: 129))
        var badTime = good
        badTime.timestamp = "yesterday"
        var newline = good
        newline.properties["error_code"] = .text("a\nb")
        var escape = good
        escape.properties["error_code"] = .text("\u{1B}]52;c;bad\u{07}")
        for (bad, reason) in [
            (badID, "id must be a UUID"), (badName, "event must be a name"), (listed, "names: lists are not kept"),
            (long, "error_code is too long"),
            (badTime, "timestamp must be RFC 3339"), (newline, "error_code is too long"),
            (escape, "error_code holds a control or text-direction character"),
        ] {
            do {
                _ = try await subject.service.recordEvents([good, bad])
                Issue.record("\(reason): taken")
            } catch let error as ServiceError {
                #expect(error.code == .invalidInput)
                #expect(error.message.contains("Event 2: \(reason)"), "\(error.message)")
            }
        }
        do {
            _ = try await subject.service.recordEvents((0...100).map { _ in good })
            Issue.record("101 events taken")
        } catch let error as ServiceError {
            #expect(error.message == "A batch holds 1 to 100 events.")
        }
        // The good event of each refused batch was not kept: it is new now.
        #expect(try await subject.service.recordEvents([good]).stored == 1)
    }

    /// Consent withdrawn: the run's events go (the placeholder is the capability); with a
    /// session, the account's events too; another person's stay.
    @Test(arguments: ContractTests.transports) func withdrawingConsentDeletesWhatTheServiceHolds(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let guest = try await subject.service.signInAnonymously(flow: "abby").session
        let before = Self.event("screen_viewed", person: "local-ana", screen: "consent", index: 0, at: 0, flow: "abby")
        var after = Self.event("screen_viewed", person: "local-ana", screen: "names", index: 7, at: 1000, flow: "abby")
        after.userID = guest.userID
        var earlierRun = Self.event("screen_viewed", person: "local-ana-before", screen: "names", index: 7, at: 2000, flow: "abby")
        earlierRun.userID = guest.userID
        let someoneElse = Self.event("screen_viewed", person: "local-bo", screen: "consent", index: 0, at: 0, flow: "abby")
        #expect(try await subject.service.recordEvents([before, after, earlierRun, someoneElse]).stored == 4)

        #expect(try await subject.service.forgetEvents(anonymousID: "local-ana", accessToken: nil).deleted == 2)
        #expect(try await subject.funnel("abby", false).started == 2)
        #expect(
            try await subject.service.forgetEvents(anonymousID: "local-ana", accessToken: guest.accessToken).deleted == 1,
            "the account's events from an earlier run, with its session")
        #expect(try await subject.funnel("abby", false).started == 1, "someone else's stay")
        await #expect(throws: ServiceError.self) {
            _ = try await subject.service.forgetEvents(anonymousID: "local-bo", accessToken: "not-a-session")
        }
    }

    /// ASVS 5.0 8.2.1 (function-level access) and 8.3.1 (enforced on the server): the
    /// funnel answers only the operator's token; never a session's, never a guess, and
    /// no one when the server has none.
    @Test func theFunnelAnswersOnlyTheOperatorsToken() async throws {
        let server = try await RunningServer.start(dev: false, adminToken: Self.adminToken)
        defer { server.stop() }
        let transport = try HTTPTransport(base: server.base, timeout: .seconds(30))
        let session = try await transport.signInAnonymously(flow: "oklah").session
        for token in [session.accessToken, "", Self.adminToken + "x", String(Self.adminToken.dropLast())] {
            await #expect(throws: ServiceError.self) {
                _ = try await transport.funnel(flow: "oklah", since: "7d", byVersion: false, adminToken: token)
            }
        }
        #expect(try await transport.funnel(flow: "oklah", since: "7d", byVersion: false, adminToken: Self.adminToken).started == 0)
        do {
            _ = try await transport.funnel(flow: "oklah", since: "last week", byVersion: false, adminToken: Self.adminToken)
            Issue.record("a window that is not one was taken")
        } catch let error as ServiceError {
            #expect(error.code == .invalidInput)
        }

        let closed = try await RunningServer.start(dev: false)
        defer { closed.stop() }
        do {
            _ = try await HTTPTransport(base: closed.base).funnel(flow: "oklah", since: "7d", byVersion: false, adminToken: Self.adminToken)
            Issue.record("a server without an admin token answered")
        } catch let error as ServiceError {
            #expect(error.code == .unauthorized)
            #expect(error.message.contains("started without --admin-token-file"))
        }
    }

    /// Issue 46 (ASVS 2.2.1): wrong admin tokens were never limited (100 guesses, 100
    /// 401s). Ten per address per 15 minutes are judged; then 429, even for the right
    /// token, as a locked account's right password is.
    @Test func wrongAdminTokensAreLimited() async throws {
        let server = try await RunningServer.start(dev: false, adminToken: Self.adminToken)
        defer { server.stop() }
        let transport = try HTTPTransport(base: server.base, timeout: .seconds(30))
        #expect(try await transport.funnel(flow: "oklah", since: "7d", byVersion: false, adminToken: Self.adminToken).started == 0)
        for guess in 0..<10 {
            do {
                _ = try await transport.funnel(flow: "oklah", since: "7d", byVersion: false, adminToken: "guess-\(guess)")
            } catch let error as ServiceError {
                #expect(error.code == .unauthorized)
            }
        }
        do {
            _ = try await transport.funnel(flow: "oklah", since: "7d", byVersion: false, adminToken: Self.adminToken)
            Issue.record("the eleventh try was judged")
        } catch let error as ServiceError {
            #expect(error.code == .rateLimited, "\(error)")
        }
        // A request with no token at all guesses nothing: 401, as the document says.
        let bare = await Subprocess.run(
            "/usr/bin/env", ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", server.base + "/api/v1/admin/funnel?flow=oklah"])
        #expect(bare.output == "401", "\(bare.output)")
    }

    /// Issue 46: a 32-character token of one letter, or a word repeated, was accepted.
    @Test func aGuessableAdminTokenIsRefusedAtStart() throws {
        for weak in [String(repeating: "a", count: 32), String(repeating: "password", count: 4), String(repeating: "0123", count: 8)] {
            #expect(throws: AdminToken.Unusable.self) { try AdminToken.load(file: nil, environment: ["ONBOARD_ADMIN_TOKEN": weak]) }
        }
        let made = Subprocess.run("/usr/bin/env", ["openssl", "rand", "-hex", "32"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(made.count == 64)
        #expect(try AdminToken.load(file: nil, environment: ["ONBOARD_ADMIN_TOKEN": made]) == made)
        #expect(try AdminToken.load(file: nil, environment: ["ONBOARD_ADMIN_TOKEN": Self.adminToken]) == Self.adminToken)
    }

    /// Many batches from one address are limited, as every other per-address rule.
    @Test func batchesFromOneAddressAreLimited() async throws {
        var settings = contractSettings
        settings.eventBatchesPerAddress = RateLimit(limit: 3, window: 60)
        let service = try OnboardService(database: ServiceDatabase.open(path: temporaryPath("mock.sqlite")), settings: settings)
        let batch = [Self.event("screen_viewed", person: "local-a", screen: "privacy", index: 0, at: 0)]
        for _ in 0..<3 { _ = try await service.recordEvents(batch, client: "10.0.0.1") }
        await #expect(throws: ServiceError.self) { _ = try await service.recordEvents(batch, client: "10.0.0.1") }
        _ = try await service.recordEvents(batch, client: "10.0.0.2")
    }

    /// Issue 46 §3 (ASVS 2.4.1): one address could send 600 full batches a minute (60,000
    /// events, kept 90 days; the funnel then read "60000 started"), and `/events/forget`
    /// was unlimited. Events and bytes per address, events per run, a store-wide ceiling
    /// and withdrawals per address are limited, on SQLite and PostgreSQL; what is refused
    /// is not stored.
    @Test(arguments: ["sqlite", "postgres"]) func aFloodOfEventsIsRefusedBeforeItIsStored(store kind: String) async throws {
        var settings = contractSettings
        settings.eventsPerAddress = RateLimit(limit: 250, window: 3600)
        settings.eventsPerRun = RateLimit(limit: 120, window: 3600)
        settings.eventsStoreWide = RateLimit(limit: 400, window: 3600)
        settings.eventBytesPerAddress = RateLimit(limit: 60_000, window: 3600)
        settings.forgetsPerAddress = RateLimit(limit: 2, window: 3600)
        let service: OnboardService
        if kind == "postgres" {
            let store = try await PostgresSubject.store()
            service = try OnboardService(store: store, keys: try await ServiceKeys.stored(in: store), settings: settings)
        } else {
            service = try OnboardService(database: ServiceDatabase.open(path: temporaryPath("mock.sqlite")), settings: settings)
        }
        func batch(_ person: String, _ count: Int, padding: Int = 0) -> [AnalyticsEvent] {
            let notes = Dictionary(
                uniqueKeysWithValues: (0..<(padding > 0 ? 10 : 0)).map {
                    ("note_\($0)", FieldValue.text(String(repeating: "x", count: padding)))
                })
            return (0..<count).map {
                Self.event("screen_viewed", person: person, screen: "privacy", index: $0, at: Int64($0), properties: notes)
            }
        }
        func refused(_ events: [AnalyticsEvent], from client: String, sourceLocation: SourceLocation = #_sourceLocation) async {
            do {
                _ = try await service.recordEvents(events, client: client)
                Issue.record("a batch over a limit was stored", sourceLocation: sourceLocation)
            } catch let error as ServiceError {
                #expect(error.code == .rateLimited && error.retryAfter != nil, "\(error)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(error)", sourceLocation: sourceLocation)
            }
        }
        // One run: 100 and then 20 events are fine, the 121st of its hour is not.
        _ = try await service.recordEvents(batch("run-a", 100), client: "10.0.0.1")
        _ = try await service.recordEvents(batch("run-a", 20), client: "10.0.0.1")
        await refused(batch("run-a", 1), from: "10.0.0.1")
        // One address: runs it makes up cannot pass its 250 events.
        _ = try await service.recordEvents(batch("run-b", 100), client: "10.0.0.1")
        await refused(batch("run-c", 100), from: "10.0.0.1")
        // Bytes: another address's padded events pass its byte budget first.
        await refused(batch("run-d", 100, padding: 120), from: "10.0.0.2")
        // The store-wide ceiling: 220 stored, 180 more fit, the next is refused from anyone.
        _ = try await service.recordEvents(batch("run-e", 100), client: "10.0.0.3")
        _ = try await service.recordEvents(batch("run-f", 80), client: "10.0.0.4")
        await refused(batch("run-g", 1), from: "10.0.0.5")
        let report = try await service.funnel(flow: "oklah", since: 0, byVersion: false)
        #expect(report.started == 4, "runs a, b, e and f; not c, d or g, refused whole: \(report.started)")

        // Withdrawals: two an hour from one address, the third waits.
        _ = try await service.forgetEvents(anonymousID: "run-a", accessToken: nil, client: "10.0.0.9")
        _ = try await service.forgetEvents(anonymousID: "run-b", accessToken: nil, client: "10.0.0.9")
        await #expect(throws: ServiceError.self) {
            _ = try await service.forgetEvents(anonymousID: "run-e", accessToken: nil, client: "10.0.0.9")
        }
    }
}
