import CivilCalendar
import FlowEngine
import FoundationEssentials
import InputRules
import ServiceAPI
import ServiceClient

/// RuckTracker's records on the runner's side: the account as Home shows it, and rucks
/// logged offline, kept on this device with the identity that logged them and synced with
/// that identity's session only (DECISIONS 32).
extension OperationRunner {
    var pendingRucks: PendingRucks { PendingRucks(path: device.folder.map { $0 + "/pending-rucks.json" }, personal: personal) }

    var knownDevice: KnownDevice { KnownDevice(path: device.folder.map { $0 + "/device-tokens.json" }, personal: personal) }

    /// When a ruck was logged, to the second, in the device's clock: part of its entry.
    func stamp() -> String {
        let seconds = clock.nowMilliseconds() / 1000 + device.utcOffset
        let date = CivilDate(milliseconds: seconds * 1000, utcOffset: 0)
        let time = ((seconds % 86_400) + 86_400) % 86_400
        let parts = [time / 3600, time / 60 % 60, time % 60].map { ($0 < 10 ? "0" : "") + String($0) }
        return "\(date) " + parts.joined(separator: ":")
    }

    /// A ruck logged offline: kept on this device with its owner, in order, and synced
    /// when the service answers.
    func keptOffline(_ entry: String, of owner: Session, _ request: CallRequest) throws -> CallOutput {
        try pendingRucks.add(entry, owner: owner.userID, key: request.idempotencyKey)
        let known = request.fields["rucks"]?.list?.filter { !$0.hasSuffix(PendingRucks.marker) } ?? []
        return CallOutput(values: [
            "rucks": .list(PendingRucks.merged(known, pendingRucks.rucks(of: owner.userID), marking: true)), "distance_km": .text(""),
            "duration_min": .text(""),
        ])
    }

    /// Only `owner`'s own: each pending ruck goes up with the session that logged it.
    func syncPendingRucks(of owner: Session, on service: any AuthService) async throws {
        let pending = pendingRucks.rucks(of: owner.userID)
        guard !pending.isEmpty else { return }
        // Not under the call's idempotency key: that one belongs to the ruck being logged.
        try await CallContext.$idempotencyKey.withValue(nil) {
            try await putPendingRucks(pending, of: owner, on: service)
        }
    }

    /// Adds rucks logged offline to the service's list, each as one item, in the order
    /// logged: another device's rucks added meanwhile stay. Repeated after a lost reply,
    /// the service finds them there and adds nothing twice.
    func putPendingRucks(_ pending: [String], of owner: Session, on service: any AuthService) async throws {
        for ruck in pending { _ = try await service.addRecordItem(accessToken: owner.accessToken, key: "rucks", item: ruck) }
        try pendingRucks.removeAll(of: owner.userID)
    }

    /// The account as the flow shows it: email, username, status, Pro, rucks.
    func accountValues(accessToken: String, on service: any AuthService) async throws -> [String: Value] {
        let profile = try await service.profile(accessToken: accessToken)
        let records = try await service.records(accessToken: accessToken)
        let pro = records["pro"] == .flag(true)
        let status = profile.isAnonymous ? (pro ? "Guest with Pro" : "Guest") : (pro ? "Premium" : "Signed In")
        return [
            "email": .text(profile.email ?? ""), "username": .text(profile.displayName ?? ""),
            "account_status": .text(status), "pro": .text(pro ? "true" : "false"),
            "rucks": .list(records["rucks"].flatMap(Self.list) ?? []), "user_id": .text(profile.userID),
        ]
    }

    func loadAccount(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        // Rucks this account kept on this device while offline go up first.
        let current = try session(of: request)
        try await syncPendingRucks(of: current, on: service)
        let values = try await accountValues(accessToken: current.accessToken, on: service)
        guard current.isAnonymous, values["email"]?.text?.isEmpty == false else { return CallOutput(values: values) }
        // The service says this guest has an email: a link whose answer a kill or a
        // lost reply never brought. The session is renewed to say so too.
        return CallOutput(session: try await refresher.refresh(current, now: clock.nowMilliseconds(), using: service), values: values)
    }

    func logRuck(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let owner = try session(of: request)
        let access = owner.accessToken
        // A retry of a Save kept here before (offline, or its session refused) is that ruck.
        let entry = pendingRucks.ruck(keptUnder: request.idempotencyKey) ?? Self.ruckEntry(request, stamp: stamp())
        do {
            try await syncPendingRucks(of: owner, on: service)
            // One item the service adds, never the list written back: a ruck another device
            // saved at the same moment stays. A retry whose first try landed adds nothing.
            let rucks = try await service.addRecordItem(accessToken: access, key: "rucks", item: entry)
            return CallOutput(values: ["rucks": .list(rucks), "distance_km": .text(""), "duration_min": .text("")])
        } catch let error as ServiceError where error.code.isUnreachable {
            return try keptOffline(entry, of: owner, request)
        } catch let error as ServiceError where error.code == .unauthorized {
            // The session was refused (ended, or another window signed out): the ruck is
            // kept here for its owner and goes up once that identity is back. A guest's is
            // kept as offline rucks are (a guest never loses data, and its renewal is
            // retried); an account is asked to log in again, and then it syncs.
            let kept = try keptOffline(entry, of: owner, request)
            if owner.isAnonymous { return kept }
            throw KeptForItsOwner(error: error, work: KeptWork(values: kept.values, note: PendingRucks.keptForAccount))
        }
    }

    func purchasePro(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        try await service.putRecord(accessToken: try session(of: request).accessToken, key: "pro", value: .flag(true))
        return CallOutput(values: try await accountValues(accessToken: try session(of: request).accessToken, on: service))
    }

    func setUsername(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let username = (request.inputs["username"] ?? "").trimmingWhitespace
        _ = try await service.updateProfile(accessToken: try session(of: request).accessToken, fields: ["display_name": .text(username)])
        return CallOutput(values: try await accountValues(accessToken: try session(of: request).accessToken, on: service))
    }
}
