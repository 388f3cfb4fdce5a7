import EmbeddedMock
import FlowEngine
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient
import Testing

/// MIGA's setup operations on a real embedded service and a real folder.
@Suite struct DeviceSetupTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-device-\(UUID().uuidString)").path
    let service = try! OnboardService(database: try! ServiceDatabase.inMemory())

    func runner(_ simulation: [String: String] = [:], service: (any AuthService)? = nil, offsetSeconds: Int64 = 0) -> OperationRunner {
        let clock = RuntimeClock(offsetSeconds: offsetSeconds)
        return OperationRunner(
            service: service ?? InProcessTransport(service: self.service), flowID: "miga", clock: clock,
            device: DeviceSetup(folder: folder, simulation: simulation, clock: clock))
    }

    func run(
        _ operation: ScreenTable.Operation, _ runner: OperationRunner, session: Session? = nil, inputs: [String: String] = [:],
        fields: [String: Value] = [:]
    ) async -> Result<CallOutput, ServiceFailure> {
        await runner.run(CallRequest(id: 1, operation: operation, session: session, inputs: inputs, fields: fields))
    }

    @Test func theLocalStoreIsAPrivateFolder() async throws {
        let output = try await run(.prepareStore, runner()).get()
        #expect(output.values["note"] == .text("ready"))
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func remoteConfigIsReadWhenValid() async throws {
        let output = try await run(.fetchConfig, runner()).get()
        #expect(output.values["content_sync_enabled"] == .text("true"))
        #expect(output.values["onboarding_flow_version"] == .text("1.0"))
        #expect(output.values["fell_back"] == nil)
    }

    @Test(arguments: [
        ["content_sync_enabled": FieldValue.text("yes"), "onboarding_flow_version": .text("1.0")],
        ["content_sync_enabled": .flag(true), "onboarding_flow_version": .text("abc")],
        ["content_sync_enabled": .flag(true), "onboarding_flow_version": .text("1000.0")],
        ["content_sync_enabled": .number(1), "onboarding_flow_version": .number(2)],
        ["content_sync_enabled": .flag(true), "onboarding_flow_version": .text(String(repeating: "9", count: 5000))],
    ])
    func aMalformedOrOutOfRangeValueTakesItsDefault(config: [String: FieldValue]) async throws {
        service.overrideConfig(config)
        let output = try await run(.fetchConfig, runner()).get()
        let note = output.values["note"]?.text ?? ""
        #expect(note.contains("default used for"))
        if case .flag(let enabled)? = config["content_sync_enabled"] {
            #expect(output.values["content_sync_enabled"] == .text(enabled ? "true" : "false"))
        } else {
            #expect(output.values["content_sync_enabled"] == .text("false"))
        }
        if config["onboarding_flow_version"] != .text("1.0") {
            #expect(output.values["onboarding_flow_version"] == .text("1.0"))
        }
    }

    @Test func offlineEveryConfigValueTakesItsDefaultAndSaysSo() async throws {
        let output = try await run(.fetchConfig, runner(service: Misbehaving())).get()
        #expect(output.values["content_sync_enabled"] == .text("false"))
        #expect(output.values["onboarding_flow_version"] == .text("1.0"))
        #expect(output.values["fell_back"] == .text("true"))
    }

    @Test func contentComesFromTheServiceOrTheBundleAndIsCached() async throws {
        let guest = try await InProcessTransport(service: service).signInAnonymously(flow: "miga").session
        let session = Session(
            userID: guest.userID, accessToken: guest.accessToken, accessExpiresAt: guest.accessExpiresAt, refreshToken: guest.refreshToken,
            refreshExpiresAt: nil, isAnonymous: true, createdAt: guest.createdAt, lastAuthenticated: guest.issuedAt)
        let online = try await run(.preloadContent, runner(), session: session).get()
        #expect(online.values["note"] == .text("12 entries cached"))
        let cached = try JSONDecoder().decode([ContentEntry].self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/content.json")))
        #expect((10...20).contains(cached.count))

        let offline = try await run(.preloadContent, runner(service: Misbehaving()), session: session).get()
        #expect(offline.values["note"] == .text("local: 10 bundled entries cached"))
        #expect(offline.values["fell_back"] == .text("true"))
        let local = try await run(.preloadContent, runner(), session: nil).get()
        #expect(local.values["content_count"] == .text("10"), "signed out (local-only): the bundle")
    }

    @Test func compatibilityFollowsTheSimulatedDevice() async throws {
        let all = try await run(.checkCompatibility, runner()).get()
        #expect(all.values["supported_apps"] == .list(DeviceSetup.apps))
        #expect(all.values["biometrics"] == .text("face_id"))
        let some = try await run(.checkCompatibility, runner(["unsupported": "TikTok, x", "biometrics": "touch_id"])).get()
        #expect(some.values["supported_apps"] == .list(["Instagram", "Facebook", "YouTube", "Snapchat"]))
        #expect(some.values["note"] == .text("4 of 6 apps supported; Touch ID"))
    }

    @Test func hidingValidationCanBeMadeToFail() async throws {
        #expect(try await run(.validateHiding, runner()).get().values["hiding_verified"] == .text("true"))
        let failed = await run(.validateHiding, runner(["hiding": "fail"]))
        guard case .failure(let failure) = failed else { Issue.record("expected a failure"); return }
        #expect(failure.code == "not_found")
    }

    @Test func theStreakStartsAtDayOneAndCountsDays() async throws {
        let first = try await run(
            .openHub, runner(), inputs: ["readiness": "7"], fields: ["apps": .list(["Instagram"]), "interests": .list(["Sleep"])]
        ).get()
        #expect(first.values["streak_day"] == .text("1"))
        #expect(first.values["hub_summary"] == .list(["Readiness: 7 of 10", "Interests: Sleep", "Behind a mindful pause: Instagram"]))
        let since = first.values["hub_since"]?.text ?? ""
        let next = try await run(
            .openHub, runner(offsetSeconds: 86_400), inputs: ["hub_since": since, "hub_last": first.values["hub_last"]?.text ?? ""]
        ).get()
        let later = try await run(
            .openHub, runner(offsetSeconds: 2 * 86_400), inputs: ["hub_since": since, "hub_last": next.values["hub_last"]?.text ?? ""]
        ).get()
        #expect(later.values["streak_day"] == .text("3"))
        #expect(later.values["hub_since"] == .text(since))
    }

    /// Issue 32: the streak counted calendar days since the first visit ("Day 401" after
    /// 400 days away). It counts days in a row: a day missed starts it again, said on the hub.
    @Test func aDayMissedStartsTheStreakAgainAndTheHubSaysSo() async throws {
        let first = try await run(.openHub, runner()).get()
        let inputs = ["hub_since": first.values["hub_since"]?.text ?? "", "hub_last": first.values["hub_last"]?.text ?? ""]
        let sameDay = try await run(.openHub, runner(), inputs: inputs).get()  // again the same day
        #expect(sameDay.values["streak_day"] == .text("1"))
        let away = try await run(.openHub, runner(offsetSeconds: 400 * 86_400), inputs: inputs).get()
        #expect(away.values["streak_day"] == .text("1"))
        #expect(away.values["hub_since"] == away.values["hub_last"], "the streak starts today")
        #expect(
            away.values["hub_summary"]?.list?.first
                == "A day went by without MIGA, so your streak starts again today: it counts the days in a row you open MIGA.")
        let twoDaysOn = try await run(.openHub, runner(offsetSeconds: 2 * 86_400), inputs: inputs).get()
        #expect(twoDaysOn.values["streak_day"] == .text("1"), "one day missed is enough")
    }

    /// A corrupt content cache is reported and set aside like any state file, and an
    /// answer lost with the progress file is left out rather than shown as "?".
    @Test func theHubSaysWhatItCouldNotReadAndInventsNothing() async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("[{\"title\": ".utf8).write(to: URL(fileURLWithPath: folder + "/content.json"))
        let hub = try await run(.openHub, runner()).get()
        let summary = hub.values["hub_summary"]?.list ?? []
        #expect(
            summary.first?.hasPrefix(
                "The cached content (content.json) could not be read, so the bundled entries are used. The old file was kept as content.json.corrupt-"
            ) == true, "\(summary)")
        #expect(!summary.contains { $0.contains("?") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.hasPrefix("content.json.corrupt-") })
        #expect(hub.values["banner"]?.text?.isEmpty == false, "the bundled entries stand in")
    }
}
