import Foundation
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
    }

    let path: String?

    static let marker = " (pending)"

    /// Every entry kept, whoever logged it.
    var all: [Entry] {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return [] }
        if let entries = try? JSONDecoder().decode([Entry].self, from: data) { return entries }
        return ((try? JSONDecoder().decode([String].self, from: data)) ?? []).map { Entry(owner: nil, ruck: $0) }
    }

    /// The rucks `owner` logged here that the service does not hold yet, in order.
    func rucks(of owner: String) -> [String] {
        all.filter { $0.owner == owner || $0.owner == nil }.map(\.ruck)
    }

    func add(_ ruck: String, owner: String) throws {
        try save(all + [Entry(owner: owner, ruck: ruck)])
    }

    /// Forgets `owner`'s entries, once they are on the service; everyone else's stay.
    func removeAll(of owner: String) throws {
        let rest = all.filter { $0.owner != owner && $0.owner != nil }
        if rest.isEmpty { clear() } else { try save(rest) }
    }

    private func save(_ entries: [Entry]) throws {
        guard let path else { throw ServiceError(.network, "There is nowhere on this device to keep the ruck.") }
        try AtomicFile.writeJSON(entries, to: path)
    }

    func clear() {
        guard let path else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The service's list with the pending entries it does not hold yet, in order; those
    /// marked `(pending)` for the home screen while they are not synced.
    static func merged(_ synced: [String], _ pending: [String], marking: Bool = false) -> [String] {
        synced + pending.filter { !synced.contains($0) }.map { marking ? $0 + marker : $0 }
    }
}
