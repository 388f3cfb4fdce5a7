import Installation
import FoundationEssentials

/// What a runner keeps in the flow's folder beside the progress (`pending-rucks.json`,
/// `open-device-codes.json`, `device-tokens.json`): sealed with the folder's data key, as
/// a progress file's context is, and changed under the file's lock, so two windows on one
/// folder each add their entry and neither overwrites the other's.
struct SealedFile<Contents: Codable & Collection> {
    let path: String?
    /// nil keeps the contents readable (tests of the runner without a state folder).
    let personal: PersonalData?
    /// The JSON key the sealed text is kept under (`{"sealedRucks": "…"}`).
    let field: String
    /// What the contents are, for the sentence said when the keyring does not answer.
    let what: String
    /// What there is without a file.
    let empty: Contents
    /// A file from before sealing, read as it is; sealed on the next change.
    var readUnsealed: (Data) -> Contents? = { try? JSONDecoder().decode(Contents.self, from: $0) }

    /// The contents; `empty` when there is no file. One sealed with a key this folder no
    /// longer has, or damaged, is set aside. Throws when the secret store does not
    /// answer: the file is fine and stays.
    func contents() throws -> Contents {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return empty }
        if let sealed = (try? JSONDecoder().decode([String: String].self, from: data))?[field], let personal {
            do {
                return try JSONDecoder().decode(Contents.self, from: try personal.open(sealed))
            } catch is SecretStoreError {
                throw SecretStoreError("\(what) could not be opened: the keyring did not answer.")
            } catch {
                _ = DamagedFile.setAside(path)
                return empty
            }
        }
        if let contents = readUnsealed(data) { return contents }
        _ = DamagedFile.setAside(path)
        return empty
    }

    /// One read-modify-write under the file's lock; nothing left removes the file.
    func change(_ body: (Contents) -> Contents) throws {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        try FileLock.exclusive(path + ".lock") {
            let contents = body(try self.contents())
            guard !contents.isEmpty else { return clear() }
            let plain = try JSONEncoder().encode(contents)
            if let personal {
                try AtomicFile.writeJSON([field: try personal.seal(plain)], to: path)
            } else {
                try AtomicFile.writeJSON(contents, to: path)
            }
        }
    }

    func clear() {
        guard let path else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
