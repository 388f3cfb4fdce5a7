import FlowEngine
import Foundation
import Installation
import OnboardRuntime
import Testing

@Suite struct StateStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-state-\(UUID().uuidString)").path

    let session = Session(
        userID: "u_1", accessToken: "at_secret", accessExpiresAt: 10, refreshToken: "rt_secret", refreshExpiresAt: nil, isAnonymous: true,
        createdAt: 1, lastAuthenticated: 2, onboardingComplete: true)

    @Test func savedStateComesBackAndIsPrivate() throws {
        let store = StateStore(stateDirectory: folder, flowID: "oklah")
        let progress = SavedProgress(
            screen: "pick_name", context: ["name_options": .list(["A", "B", "C"])], onboardingComplete: false, startedAt: 5,
            placeholderUserID: "p", requiresSession: true)
        try store.save(session: session)
        try store.save(progress: progress)
        let loaded = StateStore(stateDirectory: folder, flowID: "oklah").load()
        #expect(loaded.session == session)
        #expect(loaded.progress == progress)
        #expect(loaded.warnings.isEmpty)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.sessionPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: store.folder)
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        // No temp files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder).sorted() == ["progress.json", "session.json"])
    }

    /// Issue 30: a renewal loop once wrote 5,148 events in 20 s. However many events
    /// come, the log stays under its limit, newest kept, and says how many it dropped.
    @Test func theEventLogNeverGrowsPastItsLimit() throws {
        let log = AnalyticsLog(path: folder + "/events.jsonl", limitBytes: 8192)
        for index in 0..<2000 {
            try log.append(
                AnalyticsRecord(name: "session_refreshed", userID: "u_1", timestamp: Int64(index), properties: ["n": .number(Int64(index))])
            )
        }
        let size = try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int ?? 0
        #expect(size <= 8192)
        let events = log.events()
        #expect(events.last?["n"] as? Int == 1999, "the newest is kept")
        let trimmed = try #require(events.first { $0["event"] as? String == "log_trimmed" })
        #expect((trimmed["dropped"] as? Int ?? 0) > 0)
        #expect(events.count > 20)
    }

    /// Signed in, an unreadable progress file does not claim a fresh start it won't make.
    @Test func aCorruptProgressBesideASessionSaysWhatIsKept() throws {
        let store = StateStore(stateDirectory: folder, flowID: "miga")
        try store.save(session: session)
        try Data("{\"screen\": ".utf8).write(to: URL(fileURLWithPath: store.progressPath))
        let loaded = store.load()
        #expect(loaded.session == session)
        #expect(
            loaded.warnings.first?.hasPrefix(
                "Your saved progress (progress.json) could not be read, so you are still signed in, but answers kept only on this device are lost."
            ) == true)
    }

    /// Issue 47: a damaged `session.json` started the flow fresh, though the secret store
    /// keeps the whole session (it is written there first). It is made again from there;
    /// only a store without it starts fresh.
    @Test func aCorruptFileIsSetAsideAndReportedInPlainWords() throws {
        let store = StateStore(stateDirectory: folder, flowID: "oklah")
        try store.save(session: session)
        try Data("{\"userID\": tru".utf8).write(to: URL(fileURLWithPath: store.sessionPath))
        let loaded = store.load()
        #expect(loaded.session == session, "recovered from the secret store")
        #expect(loaded.warnings.count == 1)
        #expect(
            loaded.warnings[0].hasPrefix("Your saved session (session.json) was damaged, so it was made again from a private file in "),
            "\(loaded.warnings)")
        #expect(store.sessionFile.holder() == "u_1", "the file is whole again")
        let files = try FileManager.default.contentsOfDirectory(atPath: store.folder)
        let aside = try #require(files.first { $0.hasPrefix("session.json.corrupt-") })
        #expect(try String(contentsOfFile: store.folder + "/" + aside, encoding: .utf8) == "{\"userID\": tru")

        // With nothing in the secret store either, it starts fresh and says so.
        try store.sessionFile.secrets.delete(.session("oklah"))
        try Data("{\"userID\": tru".utf8).write(to: URL(fileURLWithPath: store.sessionPath))
        let fresh = store.load()
        #expect(fresh.session == nil)
        #expect(
            fresh.warnings.first?.hasPrefix(
                "Your saved session (session.json) could not be read, so this starts fresh. The old file was kept as session.json.corrupt-")
                == true,
            "\(fresh.warnings)")
    }

    @Test func invalidUTF8InAStateFileIsSetAsideToo() throws {
        let store = StateStore(stateDirectory: folder, flowID: "oklah")
        try AtomicFile.write(Data([0xFF, 0xFE, 0x00, 0x80]), to: store.progressPath)
        let loaded = store.load()
        #expect(loaded.progress == nil)
        #expect(loaded.warnings.first?.contains("saved progress") == true)
    }

    @Test func analyticsAreJSONLinesWithVersionAndNoSecrets() throws {
        let store = StateStore(stateDirectory: folder, flowID: "oklah")
        try store.analytics.append(AnalyticsRecord(name: "onboarding_start", userID: "local-1", timestamp: 1_800_000_000_000))
        try store.analytics.append(
            AnalyticsRecord(
                name: "onboarding_error", userID: "local-1", timestamp: 1_800_000_000_500, properties: ["error_code": .text("ERR-ONB-001")])
        )
        try store.analytics.backfill(placeholder: "local-1", userID: "u_9")
        try store.analytics.append(
            AnalyticsRecord(
                name: "onboarding_complete", userID: "u_9", timestamp: 1_800_000_001_000, properties: ["duration_ms": .number(1000)]))
        let events = store.analytics.events()
        #expect(events.map { $0["event"] as? String } == ["onboarding_start", "onboarding_error", "onboarding_complete"])
        #expect(events.allSatisfy { $0["user_id"] as? String == "u_9" })
        #expect(events.allSatisfy { $0["app_version"] as? String == OnboardVersion.current })
        #expect(events[0]["timestamp"] as? String == "2027-01-15T08:00:00.000Z")
        #expect(events[2]["duration_ms"] as? Int == 1000)
    }

    @Test func resetForgetsTheFlow() async throws {
        let store = StateStore(stateDirectory: folder, flowID: "oklah")
        try store.save(session: session)
        try store.analytics.append(AnalyticsRecord(name: "x", userID: "u", timestamp: 0))
        try await store.sessionFile.withLock {}
        #expect(FileManager.default.fileExists(atPath: store.sessionFile.lockPath))
        try store.reset()
        let loaded = store.load()
        #expect(loaded.session == nil)
        #expect(store.analytics.events().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder).isEmpty, "nothing left behind, not even the lock file")
    }
}
