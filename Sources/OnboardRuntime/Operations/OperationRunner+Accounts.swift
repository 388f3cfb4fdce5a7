import FlowEngine
import ServiceAPI
import ServiceClient

/// Email accounts on the runner's side: register, log in (a guest's rucks and Pro handled
/// as the screens promise), add an email to a guest, sign out to a new guest. A device
/// that signed in to an email keeps its token for it (`KnownDevice`).
extension OperationRunner {
    func linkEmail(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let issued = try await service.linkEmail(
            flow: flowID, accessToken: try session(of: request).accessToken,
            email: request.inputs["email"] ?? "", password: request.inputs["password"] ?? "")
        knownDevice.keep(issued.deviceToken, for: request.inputs["email"] ?? "")
        return CallOutput(
            session: Session(issued, receivedAt: clock.nowMilliseconds()),
            values: try await accountValues(accessToken: issued.accessToken, on: service))
    }

    func logIn(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        // A guest's own offline rucks go up with the guest's session first. Its token goes
        // with the log-in, so a purchase (Pro) follows the person; its rucks come too when
        // the person said so ("Log In and Bring My Rucks"), else they stay with the guest,
        // as the screen says.
        let guest = await departingGuest(request, on: service)
        if let guest { try await syncPendingRucks(of: guest, on: service) }
        let email = request.inputs["email"] ?? ""
        // A device that signed in to this email before says so: strangers' guesses at
        // the account never lock it out.
        let issued = try await CallContext.$deviceToken.withValue(knownDevice.token(for: email)) {
            try await service.login(
                flow: flowID, email: email, password: request.inputs["password"] ?? "", guestAccessToken: guest?.accessToken,
                bring: guest != nil && request.inputs["bring_rucks"] == "yes" ? ["rucks"] : [])
        }
        knownDevice.keep(issued.deviceToken, for: email)
        return CallOutput(
            session: Session(issued, receivedAt: clock.nowMilliseconds()),
            values: try await accountValues(accessToken: issued.accessToken, on: service))
    }

    func signOut(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        // The account's own offline rucks go up with its session first, then the new
        // guest: offline, this fails and nothing has changed.
        let account = try session(of: request)
        try await syncPendingRucks(of: account, on: service)
        let guest = Session(try await service.signInAnonymously(flow: flowID).session, receivedAt: clock.nowMilliseconds())
        // The folder holds the new guest before anything else is asked: a kill from here
        // on relaunches as it, never as the account whose session is about to end.
        try sessionFile?.save(guest)
        try? await service.logout(refreshToken: account.refreshToken)
        return CallOutput(session: guest, values: try await accountValues(accessToken: guest.accessToken, on: service))
    }

    func register(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let issued = try await service.register(
            flow: flowID, name: request.inputs["name"] ?? "", email: request.inputs["email"] ?? "",
            password: request.inputs["password"] ?? "")
        knownDevice.keep(issued.deviceToken, for: request.inputs["email"] ?? "")
        return CallOutput(session: Session(issued, receivedAt: clock.nowMilliseconds()), values: ["children": .list([])])
    }

    /// The guest this device leaves at a log-in, with a usable access token (renewed if it
    /// expired, as a guest unused for a day has); nil without a guest, or one the service
    /// no longer renews: its rucks then stay on this device with it, never with the account.
    func departingGuest(_ request: CallRequest, on service: any AuthService) async -> Session? {
        guard let guest = request.session, guest.isAnonymous else { return nil }
        let now = clock.nowMilliseconds()
        guard guest.accessExpired(atMilliseconds: now) else { return guest }
        return try? await refresher.refresh(guest, now: now, using: service)
    }
}
