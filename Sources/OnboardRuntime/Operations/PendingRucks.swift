import FoundationEssentials
import ServiceAPI
import ServiceClient

/// Rucks logged while the service could not be reached, kept on this device in order
/// (`pending-rucks.json` in the flow's folder) until a later call syncs them: the guest
/// screen promises "Your data is saved on this device".
///
/// Each entry carries the user id of the identity that logged it, and is only ever sent
/// with that identity's session: a ruck logged offline by one account never lands in the
/// guest made at sign-out, nor in the account a guest logs in to. Each also carries a
/// stamp (when it was logged, to the second), so a sync repeated after a lost reply
/// recognises entries already on the service and adds none twice.
struct PendingRucks {
    struct Entry: Codable, Equatable {
        /// nil: written before owners were kept; it goes with the next session to sync.
        var owner: String?
        var ruck: String
        /// The idempotency key of the Save that kept it: a retry of that Save finds this
        /// entry (its stamp too) instead of making a second. nil in files from before.
        var key: String?
    }

    let path: String?
    /// nil keeps the entries readable (tests of the runner without a state folder).
    let personal: PersonalData?

    static let marker = " (pending)"
    /// Said when an account's session ended as it saved a ruck: the ruck is that
    /// account's, here, until it is back (a new guest does not take it).
    static let keptForAccount = "Your ruck is kept on this device for your account, and is saved to it when you log in again."

    /// The file, sealed like a progress file's context (a ruck is a person's record). A
    /// plain list of entries, or of rucks alone, is a file from before.
    private var file: SealedFile<[Entry]> {
        SealedFile(path: path, personal: personal, field: "sealedRucks", what: "The rucks kept on this device", empty: []) { data in
            let decoder = JSONDecoder()
            if let entries = try? decoder.decode([Entry].self, from: data) { return entries }
            return (try? decoder.decode([String].self, from: data)).map { $0.map { Entry(owner: nil, ruck: $0) } }
        }
    }

    /// Every entry kept, whoever logged it; none when the keyring does not answer now.
    var all: [Entry] { (try? file.contents()) ?? [] }

    /// The rucks `owner` logged here that the service does not hold yet, in order.
    func rucks(of owner: String) -> [String] {
        all.filter { $0.owner == owner || $0.owner == nil }.map(\.ruck)
    }

    /// Keeps `ruck` for `owner`; a second add under the same Save's `key` keeps one.
    func add(_ ruck: String, owner: String, key: String? = nil) throws {
        try change { entries in
            entries.contains { key != nil && $0.key == key } ? entries : entries + [Entry(owner: owner, ruck: ruck, key: key)]
        }
    }

    /// The ruck a Save kept here under `key`, if one did (its first try's stamp).
    func ruck(keptUnder key: String?) -> String? {
        guard let key else { return nil }
        return all.first { $0.key == key }?.ruck
    }

    /// A guest made on this device, once the service knows it: its entries are the
    /// registered guest's.
    func reassign(from local: String, to registered: String) throws {
        guard all.contains(where: { $0.owner == local }) else { return }
        try change { $0.map { $0.owner == local ? Entry(owner: registered, ruck: $0.ruck, key: $0.key) : $0 } }
    }

    /// Forgets `owner`'s entries, once they are on the service; everyone else's stay.
    func removeAll(of owner: String) throws {
        try change { $0.filter { $0.owner != owner && $0.owner != nil } }
    }

    private func change(_ body: ([Entry]) -> [Entry]) throws {
        guard path != nil else { throw ServiceError(.network, "There is nowhere on this device to keep the ruck.") }
        try file.change(body)
    }

    func clear() { file.clear() }

    /// The service's list with the pending entries it does not hold yet, in order; those
    /// marked `(pending)` for the home screen while they are not synced.
    static func merged(_ synced: [String], _ pending: [String], marking: Bool = false) -> [String] {
        synced + pending.filter { !synced.contains($0) }.map { marking ? $0 + marker : $0 }
    }
}
