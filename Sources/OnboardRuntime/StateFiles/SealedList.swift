import Foundation

/// A list a runner keeps in the flow's folder (`pending-rucks.json`,
/// `open-device-codes.json`): sealed with the folder's data key, as a progress file's
/// context is, and changed under the file's lock, so two windows on one folder each add
/// their entry and neither overwrites the other's.
struct SealedList<Entry: Codable> {
    let path: String?
    /// nil keeps the entries readable (tests of the runner without a state folder).
    let personal: PersonalData?
    /// The JSON key the sealed text is kept under (`{"sealedRucks": "…"}`).
    let field: String
    /// What the entries are, for the sentence said when the keyring does not answer.
    let what: String
    /// A file from before sealing, read as it is; sealed on the next change.
    var readUnsealed: (Data) -> [Entry]? = { try? JSONDecoder().decode([Entry].self, from: $0) }

    /// The entries; none when there is no file. One sealed with a key this folder no
    /// longer has, or damaged, is set aside. Throws when the secret store does not
    /// answer: the file is fine and stays.
    func entries() throws -> [Entry] {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return [] }
        if let sealed = (try? JSONDecoder().decode([String: String].self, from: data))?[field], let personal {
            do {
                return try JSONDecoder().decode([Entry].self, from: try personal.open(sealed))
            } catch is SecretStoreError {
                throw SecretStoreError("\(what) could not be opened: the keyring did not answer.")
            } catch {
                _ = StateStore.setAside(path)
                return []
            }
        }
        if let entries = readUnsealed(data) { return entries }
        _ = StateStore.setAside(path)
        return []
    }

    /// One read-modify-write under the file's lock; an empty list removes the file.
    func change(_ body: ([Entry]) -> [Entry]) throws {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        try FileLock.exclusive(path + ".lock") {
            let entries = body(try entries())
            guard !entries.isEmpty else { return clear() }
            let plain = try JSONEncoder().encode(entries)
            if let personal {
                try AtomicFile.writeJSON([field: try personal.seal(plain)], to: path)
            } else {
                try AtomicFile.writeJSON(entries, to: path)
            }
        }
    }

    func clear() {
        guard let path else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
