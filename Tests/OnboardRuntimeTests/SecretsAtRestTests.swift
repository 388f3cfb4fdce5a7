import FlowEngine
import Foundation
import OnboardRuntime
import Testing

/// Tokens in the secret store, personal values sealed: what is on disk in clear, what a
/// missing key or secret does, and that older files still open. The file backend here;
/// the keyring backend runs the same through the binary (KeyringEndToEndTests).
@Suite struct SecretsAtRestTests {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-secrets-\(UUID().uuidString)").path

    let session = Session(
        userID: "u_1", accessToken: "at_secret_access", accessExpiresAt: 10, refreshToken: "rt_secret_refresh", refreshExpiresAt: nil,
        isAnonymous: false, createdAt: 1, lastAuthenticated: 2, onboardingComplete: true)
    let progress = SavedProgress(
        screen: "basic_profile",
        context: [
            "full_name": .text("Ana López"), "phone_e164": .text("+15550109999"), "email": .text("ana@example.org"),
            "seeking": .list(["Women"]),
        ],
        onboardingComplete: false, startedAt: 5, placeholderUserID: "p", requiresSession: true)

    /// Every file in the state folder outside `secrets/`, as text.
    func filesInClear() throws -> [String: String] {
        var files: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: state) where !path.hasPrefix("secrets") {
            guard let data = FileManager.default.contents(atPath: state + "/" + path) else { continue }
            files[path] = String(decoding: data, as: UTF8.self)
        }
        return files
    }

    @Test func noTokenAndNoPersonalValueIsInTheStateFilesAndBothComeBack() throws {
        let store = StateStore(stateDirectory: state, flowID: "abby")
        try store.save(session: session)
        try store.save(progress: progress)
        let files = try filesInClear()
        #expect(files.keys.sorted() == [".data-key.lock", "abby/progress.json", "abby/session.json"])
        for (name, text) in files {
            for secret in ["at_secret_access", "rt_secret_refresh", "López", "5550109999", "ana@example.org", "Women"] {
                #expect(!text.contains(secret), "\(name) holds \(secret)")
            }
        }
        // Where a person is stays readable for QA.
        #expect(files["abby/progress.json"]?.contains("\"screen\" : \"basic_profile\"") == true)
        let readable = try JSONSerialization.jsonObject(with: Data(files["abby/session.json", default: ""].utf8)) as? [String: Any]
        #expect(readable?["tokensKeptIn"] as? String == "a private file in \(state)/secrets")
        #expect(readable?["userID"] as? String == "u_1")
        let loaded = StateStore(stateDirectory: state, flowID: "abby").load()
        #expect(loaded.session == session)
        #expect(loaded.progress == progress)
        #expect(loaded.warnings.isEmpty)
        for name in ["data-key", "abby.session"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: state + "/secrets/" + name)
            #expect(attributes[.posixPermissions] as? Int == 0o600)
        }
        #expect(try FileManager.default.attributesOfItem(atPath: state + "/secrets")[.posixPermissions] as? Int == 0o700)
    }

    /// A keyring reset, or the folder copied to another computer: like a corrupt file, a
    /// plain message, the old file kept aside, a fresh start.
    @Test func progressWhoseKeyIsGoneIsSetAsideWithAPlainMessage() throws {
        let store = StateStore(stateDirectory: state, flowID: "abby")
        try store.save(session: session)
        try store.save(progress: progress)
        try FileSecretStore(stateDirectory: state).delete(.dataKey)
        let loaded = StateStore(stateDirectory: state, flowID: "abby").load()
        #expect(loaded.session == session, "the account is kept")
        #expect(loaded.progress == nil)
        // Said once, with whatever else the key sealed (issue 47), by the session's launch.
        #expect(loaded.warnings.isEmpty)
        let loss = try #require(loaded.losses.first)
        #expect(loss.what == "your saved answers (progress.json)" && loss.keptAs.hasPrefix("progress.json.corrupt-"))
        #expect(
            SealedLoss.said(loaded.losses, howLost: FileSecretStore(stateDirectory: state).howSecretsAreLost, stillSignedIn: true)
                .hasPrefix(
                    "This folder's data key is no longer here (its secrets/ folder was removed, or the state folder was copied without it), so what it sealed could not be opened: your saved answers (progress.json). You are still signed in. The old file was kept as progress.json.corrupt-"
                ))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder).contains { $0.hasPrefix("progress.json.corrupt-") })
    }

    @Test func progressSealedWithAnotherComputersKeyIsSetAsideToo() throws {
        try StateStore(stateDirectory: state, flowID: "miga").save(progress: progress)
        try FileSecretStore(stateDirectory: state).write(Data(repeating: 7, count: 32).base64EncodedString(), for: .dataKey)
        let loaded = StateStore(stateDirectory: state, flowID: "miga").load()
        #expect(loaded.progress == nil)
        #expect(loaded.losses.count == 1 && loaded.warnings.isEmpty)
    }

    /// Issue 32: the file store's message blamed the keyring, in a second parenthesis.
    @Test func aSessionWhoseTokensAreGoneIsSetAsideAndStartsFresh() throws {
        let store = StateStore(stateDirectory: state, flowID: "oklah")
        try store.save(session: session)
        try FileSecretStore(stateDirectory: state).delete(.session("oklah"))
        let loaded = StateStore(stateDirectory: state, flowID: "oklah").load()
        #expect(loaded.session == nil)
        #expect(
            loaded.warnings.first?.hasPrefix(
                "Your saved session (session.json) could not be read, because its tokens are no longer in a private file in \(state)/secrets: its secrets/ folder was removed, or the state folder was copied without it, so this starts fresh."
            ) == true)
    }

    /// Files from before secrets at rest open as they are; the next save moves the
    /// tokens out and seals the answers.
    @Test func olderFilesInClearOpenAndAreSealedOnTheNextSave() throws {
        let store = StateStore(stateDirectory: state, flowID: "abby")
        let encoder = JSONEncoder()
        try AtomicFile.write(encoder.encode(session), to: store.sessionPath)
        try AtomicFile.write(encoder.encode(progress), to: store.progressPath)
        let loaded = store.load()
        #expect(loaded.session == session)
        #expect(loaded.progress == progress)
        try store.save(session: session)
        try store.save(progress: progress)
        for text in try filesInClear().values {
            #expect(!text.contains("rt_secret_refresh") && !text.contains("López"))
        }
    }

    @Test func logOutAndResetRemoveTheSecrets() throws {
        let secrets = FileSecretStore(stateDirectory: state)
        let store = StateStore(stateDirectory: state, flowID: "abby", secrets: secrets)
        try store.save(session: session)
        #expect(try secrets.read(.session("abby")) != nil)
        try store.save(session: nil)
        #expect(try secrets.read(.session("abby")) == nil, "log-out removes the tokens")
        try store.save(session: session)
        try store.reset()
        #expect(try secrets.read(.session("abby")) == nil, "reset removes them")
        try secrets.deleteAll()
        #expect(!FileManager.default.fileExists(atPath: secrets.folder))
    }

    @Test func autoUsesTheFileWhereNoSessionBusRunsAndSaysSoOnce() throws {
        let environment = ["XDG_RUNTIME_DIR": state + "/no-runtime"]
        let first = try SecretStoreMode.auto.open(stateDirectory: state, environment: environment)
        #expect(first.store is FileSecretStore)
        #expect(
            first.notice
                == "Onboard keeps this folder's tokens and encryption key in a private file (\(state)/secrets): no Secret Service answers here (no D-Bus session bus)."
        )
        try StateStore(stateDirectory: state, flowID: "oklah", secrets: first.store).save(session: session)
        #expect(try SecretStoreMode.auto.open(stateDirectory: state, environment: environment).notice == nil)
        #expect(throws: SecretStoreError.self) { try SecretStoreMode.keyring.open(stateDirectory: state, environment: environment) }
    }
}
