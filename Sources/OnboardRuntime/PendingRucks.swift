import Foundation
import ServiceAPI
import ServiceClient

/// Rucks logged while the service could not be reached, kept on this device in order
/// (`pending-rucks.json` in the flow's folder) until a later call syncs them: the guest
/// screen promises "Your data is saved on this device".
///
/// Each entry carries a stamp (when it was logged, to the second), so a sync repeated
/// after a lost reply recognises entries already on the service and adds none twice.
struct PendingRucks {
    let path: String?

    static let marker = " (pending)"

    var entries: [String] {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }

    func save(_ entries: [String]) throws {
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
