import FoundationEssentials
import InputRules

/// Sessions belong to a service. A flow's state (session, progress, records kept on
/// the device, events) is kept apart for each service it was used with, so talking to
/// one service never renews, deletes or reuses the session another one issued:
///
/// - `<state>/<flow>/` belongs to the first service that used it (its `service` file
///   says which; a folder from before that file is claimed by the next run, as it was
///   used before);
/// - every other service has `<state>/<flow>@<service>/` beside it, named readably.
///
/// Each folder's `service` file names its service, so a run can say where an account it
/// does not use is kept.
public enum ServiceFolders {
    /// The embedded mock over the state folder's own database.
    public static let embeddedMock = "mock://local"

    /// The folder holding `flowID`'s state for `service`; nil `service` is the flow's own
    /// folder, whoever it belongs to (tests, `onboard reset`).
    public static func folder(stateDirectory: String, flowID: String, service: String?) throws -> String {
        let own = stateDirectory + "/" + flowID
        guard let service else { return own }
        // Two first runs against two services at once: one claims the flow's folder.
        return try FileLock.exclusive(stateDirectory + "/.service-folders.lock") {
            // The flow's own folder first; two addresses that read alike as folder names
            // get the second a hash.
            for folder in [own, own + "@" + slug(service), own + "@" + slug(service) + "-" + hash(service)] {
                switch owner(of: folder) {
                case service?: return folder
                case nil:
                    try AtomicFile.makePrivateDirectory(folder)
                    try AtomicFile.write(Data((service + "\n").utf8), to: markerPath(folder))
                    return folder
                default: continue
                }
            }
            throw StorageError(path: own, reason: "no folder is free for the state kept for \(service)")
        }
    }

    /// The service a folder's state belongs to; nil for a folder no run has claimed.
    public static func owner(of folder: String) -> String? {
        guard let data = FileManager.default.contents(atPath: markerPath(folder)) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespace
        return text.isEmpty ? nil : text
    }

    /// Every folder of `flowID`'s state, whichever service it belongs to.
    public static func all(stateDirectory: String, flowID: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []
        return names.filter { $0 == flowID || $0.hasPrefix(flowID + "@") }.sorted().map { stateDirectory + "/" + $0 }
    }

    /// A note for a run that holds no session for its service while another service's
    /// folder of the flow does: where that account is, and how to go back to it.
    public static func keptElsewhere(stateDirectory: String, flowID: String, besides folder: String, current service: String) -> String? {
        guard SessionFile(path: folder + "/session.json").holder() == nil else { return nil }
        let others = all(stateDirectory: stateDirectory, flowID: flowID).filter {
            $0 != folder && SessionFile(path: $0 + "/session.json").holder() != nil
        }.compactMap(owner(of:))
        guard let other = others.first else { return nil }
        return "You are signed in on \(describe(other)), which this run does not use (it uses \(describe(service))): "
            + "that account is kept in this folder as it was. To go back to it, \(howToUse(other))."
    }

    /// The flow id a state folder's sub-folder belongs to (`oklah@http_…` is OKLah's).
    public static func flowID(ofFolderNamed name: String) -> String {
        name.split(separator: "@", maxSplits: 1).first.map(String.init) ?? name
    }

    /// How a person names a service: "the embedded mock", or its address.
    public static func describe(_ service: String) -> String {
        if service == embeddedMock { return "the embedded mock" }
        if service.hasPrefix("mock://") { return "the embedded mock in \(service.dropFirst("mock://".count))" }
        return service
    }

    /// How to run against a service again.
    public static func howToUse(_ service: String) -> String {
        if service == embeddedMock { return "run without --service" }
        if service.hasPrefix("mock://") { return "run with --mock-db \(service.dropFirst("mock://".count))" }
        return "run with --service \(service)"
    }

    /// One address per service however it was typed: scheme and host in lower case, no
    /// trailing slash, the scheme's own port left out.
    public static func identity(ofAddress address: String) -> String {
        guard var parts = URLComponents(string: address), let scheme = parts.scheme?.lowercased() else { return address }
        parts.scheme = scheme
        parts.host = parts.host?.lowercased()
        if (scheme == "http" && parts.port == 80) || (scheme == "https" && parts.port == 443) { parts.port = nil }
        while parts.path.hasSuffix("/") { parts.path.removeLast() }
        return parts.string ?? address
    }

    /// FNV-1a, 32 bits, in hex: the same on every run.
    private static func hash(_ text: String) -> String {
        var value: UInt32 = 2_166_136_261
        for byte in text.utf8 { value = (value ^ UInt32(byte)) &* 16_777_619 }
        return String(value, radix: 16)
    }

    private static func markerPath(_ folder: String) -> String { folder + "/service" }

    /// A folder name from an address: letters, digits, '.' and '-' kept, the rest '_'.
    static func slug(_ service: String) -> String {
        var text = service
        if let range = text.firstRange(of: "://") { text = text[..<range.lowerBound] + "_" + text[range.upperBound...] }
        let kept = text.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "." || scalar == "-")
                ? Character(scalar) : "_"
        }
        return String(String(kept).prefix(120))
    }
}
