import Installation
import Crypto
import FlowEngine
import FoundationEssentials

/// One flow's client state on disk: `session.json`, `progress.json` and the analytics
/// log `events.jsonl`, in `<state dir>/<flow id>/`. Tokens live in the secret store and
/// the progress file's context (every personal value) is sealed with the folder's data
/// key. A file that cannot be read, or whose secret is gone, is set aside under a new
/// name and reported, never deleted and never a crash.
public final class StateStore {
    public let folder: String
    public let flowID: String
    public let secrets: any SecretStore
    public var sessionPath: String { sessionFile.path }
    public var sessionFile: SessionFile { SessionFile(path: folder + "/session.json", secrets: secrets) }
    public var progressPath: String { folder + "/progress.json" }
    public let analytics: AnalyticsLog
    /// What QA has reached of the flow; outlives `reset()`.
    public let coverage: CoverageLog
    private let personal: PersonalData

    /// `folder` defaults to `<state dir>/<flow id>`; a run names the one its service's
    /// state is kept in (`ServiceFolders`). `secrets` defaults to the state folder's
    /// private file.
    public init(stateDirectory: String, flowID: String, folder: String? = nil, secrets: (any SecretStore)? = nil) {
        self.folder = folder ?? stateDirectory + "/" + flowID
        self.flowID = flowID
        let secrets = secrets ?? FileSecretStore(stateDirectory: stateDirectory)
        self.secrets = secrets
        personal = PersonalData(secrets: secrets, stateDirectory: stateDirectory)
        analytics = AnalyticsLog(path: self.folder + "/events.jsonl", flowID: flowID)
        coverage = CoverageLog(stateDirectory: stateDirectory, flowID: flowID)
    }

    /// What was saved, and plain-language warnings for files that had to be set aside.
    /// `losses`: what could not be opened because the data key is gone, said in one note
    /// with anything else the key sealed (`SealedLoss`).
    public func load() -> (session: Session?, progress: SavedProgress?, warnings: [String], losses: [SealedLoss]) {
        var warnings: [String] = []
        var losses: [SealedLoss] = []
        let session: Session? = read(sessionPath, what: "saved session", warnings: &warnings, losses: &losses, recover: sessionFile.recover)
        { _ in
            try sessionFile.load()
        }
        // Signed in, an unreadable progress file does not start the flow again: say what
        // is kept (the account) and what is lost (answers kept only on this device).
        let outcome = session == nil ? "this starts fresh" : "you are still signed in, but answers kept only on this device are lost"
        // (A data key gone is said by `SealedLoss`, with the mock's accounts it also sealed.)
        let progress: SavedProgress? = read(progressPath, what: "saved progress", outcome: outcome, warnings: &warnings, losses: &losses) {
            data in
            try ProgressRecord.decode(data, personal: personal)
        }
        return (session, progress, warnings, losses)
    }

    public func save(session: Session?) throws {
        try sessionFile.save(session)
    }

    public func save(progress: SavedProgress?) throws {
        try AtomicFile.writeJSON(try progress.map { try ProgressRecord(progress: $0, personal: personal) }, to: progressPath)
    }

    /// Removes this flow's session (its secret and lock file too), progress and analytics log.
    public func reset() throws {
        for path in [sessionPath, sessionFile.lockPath, sessionFile.identityLockPath, progressPath, analytics.path]
        where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.removeItem(atPath: path)
        }
        try secrets.delete(.session(flowID))
    }

    /// Every secret of the state folder in `stores` (its data key and any session left
    /// behind) and the data key's lock file: `onboard reset` with no flow.
    public static func forgetSecrets(stateDirectory: String, in stores: [any SecretStore]) throws {
        for store in stores { try store.deleteAll() }
        try? FileManager.default.removeItem(atPath: PersonalData.lockPath(stateDirectory: stateDirectory))
    }

    /// `recover`: where a damaged file's whole value is kept too (a session's, in the secret
    /// store), tried before starting fresh.
    private func read<T>(
        _ path: String, what: String, outcome: String = "this starts fresh", warnings: inout [String], losses: inout [SealedLoss],
        recover: (() throws -> T?)? = nil, _ decode: (Data) throws -> T?
    ) -> T? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let name = PathText.name(of: path)
        do {
            return try decode(data)
        } catch let error as SecretStoreError {
            // The keyring did not answer: the file is fine, so it stays where it is.
            warnings.append("Your \(what) (\(name)) could not be opened, so \(outcome) for now: \(error.description)")
            return nil
        } catch {
            let aside = DamagedFile.setAside(path)
            let kept = aside.map { PathText.name(of: $0) } ?? name
            if error is PersonalData.MissingKey || error is CryptoKitError {
                // Said once, with whatever else the key sealed (the embedded mock's accounts).
                losses.append(SealedLoss(what: "your \(what == "saved progress" ? "saved answers" : what) (\(name))", keptAs: kept))
                return nil
            }
            // One parenthesis, naming how this folder's own store loses a secret.
            let why = (error as? SessionFile.MissingTokens).map { ", because \($0.description): \(secrets.howSecretsAreLost)" } ?? ""
            if why.isEmpty, let recovered = try? recover?() {
                warnings.append(
                    "Your \(what) (\(name)) was damaged, so it was made again from \(secrets.summary), which keeps it whole: nothing is lost. The damaged file was kept as \(kept)."
                )
                return recovered
            }
            warnings.append("Your \(what) (\(name)) could not be read\(why), so \(outcome). The old file was kept as \(kept).")
            return nil
        }
    }
}

/// `progress.json`: which screen and step in clear, so QA can read where a person is;
/// the context, where every answer lives, sealed (AES-256-GCM).
typealias ProgressRecord = StateFileRecord<SavedProgress, SealedContext>

extension ProgressRecord {
    init(progress: SavedProgress, personal: PersonalData) throws {
        var readable = progress
        readable.context = [:]
        self.init(readable, extra: try personal.seal(try JSONEncoder().encode(progress.context)))
    }

    /// The progress with its context opened; a file from before encryption reads as it is.
    static func decode(_ data: Data, personal: PersonalData) throws -> SavedProgress {
        let record = try JSONDecoder().decode(ProgressRecord.self, from: data)
        var progress = record.value
        if let sealed = record.extra {
            progress.context = try JSONDecoder().decode(type(of: progress.context), from: try personal.open(sealed))
        }
        return progress
    }
}
