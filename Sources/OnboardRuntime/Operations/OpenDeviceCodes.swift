import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Device sign-ins this folder started and has not finished (`open-device-codes.json`):
/// written as soon as the service hands out a code, removed once the poll has its answer
/// or the code is withdrawn. A code left here by a run that ended (a quit, a kill, a
/// closed terminal) is withdrawn by the next launch, so a browser left open on it says
/// the code is no longer valid instead of approving a sign-in no terminal waits for.
///
/// Each entry names the process that shows it: a second window opening on the folder
/// leaves a code the first is still polling alone.
struct OpenDeviceCodes {
    struct Entry: Codable, Equatable {
        /// The terminal's secret for the sign-in (sealed in the file).
        var deviceCode: String
        /// The service it was started on (nil: the flow's own).
        var service: String?
        /// When the code runs out (ms, this device's clock): past it, nothing is left to withdraw.
        var expiresAt: Int64
        var process: Int32
    }

    let file: SealedFile<[Entry]>

    init(folder: String?, personal: PersonalData?) {
        file = SealedFile(
            path: folder.map { $0 + "/open-device-codes.json" }, personal: personal, field: "sealedCodes",
            what: "The sign-in codes this device started", empty: [])
    }

    /// Kept before the code is shown. Without a folder (tests) there is nothing to keep.
    func add(_ entry: Entry) {
        guard file.path != nil else { return }
        try? file.change { $0.filter { $0.deviceCode != entry.deviceCode } + [entry] }
    }

    func remove(_ deviceCode: String) {
        guard file.path != nil else { return }
        try? file.change { $0.filter { $0.deviceCode != deviceCode } }
    }

    /// The codes no live window shows any more and that have not run out; those that
    /// ran out are forgotten.
    func left(now: Int64, isRunning: (Int32) -> Bool = OpenDeviceCodes.isRunning) -> [Entry] {
        guard file.path != nil, let all = try? file.contents() else { return [] }
        let expired = all.filter { $0.expiresAt <= now }.map(\.deviceCode)
        if !expired.isEmpty { try? file.change { $0.filter { !expired.contains($0.deviceCode) } } }
        return all.filter { $0.expiresAt > now && ($0.process == getpid() || !isRunning($0.process)) }
    }

    /// Whether a process of that id runs (one of another user's counts as running).
    static func isRunning(_ process: Int32) -> Bool {
        kill(process, 0) == 0 || errno == EPERM
    }
}
