import FlowEngine
import Foundation
import OnboardService
import ScreenTable
import ServiceAPI
import ServiceClient

/// Carries out the engine's call effects against a service, turning every answer —
/// including a thrown error of any kind or no answer at all — into a result the
/// engine branches on. Renewal is the engine's: a `refresh_session` call is carried out
/// here, through `SessionRefresher`, so two processes never spend one refresh token.
public struct OperationRunner: Sendable {
    public let services: ServiceDirectory
    public let flowID: String
    /// A call that has not answered by then fails as `timeout`.
    public let timeout: Duration
    public let clock: RuntimeClock
    private let refresher: SessionRefresher
    /// What happens on the device itself (MIGA's local store, simulated capabilities).
    public let device: DeviceSetup
    /// Seals what the runner keeps on the device (rucks logged offline) with the state
    /// folder's data key; nil without a session file (tests without a state folder).
    let personal: PersonalData?

    public init(
        services: ServiceDirectory, flowID: String, sessionFile: SessionFile? = nil, clock: RuntimeClock = RuntimeClock(),
        timeout: Duration = CallDeadlines.operation, device: DeviceSetup = DeviceSetup()
    ) {
        self.device = device
        self.services = services
        self.flowID = flowID
        self.timeout = timeout
        self.clock = clock
        refresher = SessionRefresher(file: sessionFile)
        personal = sessionFile.map { file in
            PersonalData(secrets: file.secrets, stateDirectory: ((file.path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
        }
    }

    public init(
        service: any AuthService, flowID: String, sessionFile: SessionFile? = nil, clock: RuntimeClock = RuntimeClock(),
        timeout: Duration = CallDeadlines.operation, device: DeviceSetup = DeviceSetup()
    ) {
        self.init(
            services: ServiceDirectory(fixed: service), flowID: flowID, sessionFile: sessionFile, clock: clock, timeout: timeout,
            device: device)
    }

    public func run(_ request: CallRequest) async -> Result<CallOutput, ServiceFailure> {
        if request.operation.needsSession, request.session == nil {
            return .failure(ServiceFailure(code: "unauthorized", message: "You are not signed in."))
        }
        do {
            // The key, and this device's proof of it, travel with every service call this
            // operation makes (task-local).
            let proof = request.idempotencyKey.flatMap { try? personal?.proof(of: $0) }
            let output = try await CallContext.$idempotencyKey.withValue(request.idempotencyKey) {
                try await CallContext.$idempotencyProof.withValue(proof) {
                    try await withTimeout { try await performRegisteringFirst(request, on: try services.service(for: request.service)) }
                }
            }
            return .success(output)
        } catch let error as ServiceError {
            return .failure(ServiceFailure(code: error.code.rawValue, message: error.message, retryAfter: error.retryAfter))
        } catch let failed as FailedAfterRegistering {
            let error = failed.error
            return .failure(ServiceFailure(code: error.code.rawValue, message: error.message, retryAfter: error.retryAfter, session: failed.session))
        } catch {
            return .failure(ServiceFailure(code: "server_error", message: "The service failed: \(error)"))
        }
    }

    /// A guest made on this device while offline is registered first, under the key its
    /// first launch kept (the same guest, had that call reached the service), and its rucks
    /// go with it; the call then goes as the registered guest, whose session it returns.
    /// Still offline, what this device can do alone is done: Home shows the rucks kept
    /// here, and a new ruck is kept with them.
    private func performRegisteringFirst(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        guard let local = request.session, let key = local.registrationKey else { return try await perform(request, on: service) }
        let registered: Session
        do {
            registered = try await register(local, key: key, on: service)
        } catch let error as ServiceError where error.code.isUnreachable {
            switch request.operation {
            case .loadAccount:
                return CallOutput(values: [
                    "email": .text(""), "username": .text(""), "account_status": .text("Guest on this device"), "pro": .text("false"),
                    "rucks": .list(PendingRucks.merged([], pendingRucks.rucks(of: local.userID), marking: true)), "user_id": .text(local.userID),
                ])
            case .logRuck:
                return try keptOffline(Self.ruckEntry(request, stamp: stamp()), of: local, request)
            default:
                throw error
            }
        }
        guard request.operation != .refreshSession else { return CallOutput(session: registered) }
        var online = request
        online.session = registered
        do {
            var output = try await perform(online, on: service)
            output.session = output.session ?? registered
            return output
        } catch let error as ServiceError {
            throw FailedAfterRegistering(error: error, session: registered)
        }
    }

    /// The call failed, but the guest it registered first is the service's now.
    private struct FailedAfterRegistering: Error {
        let error: ServiceError
        let session: Session
    }

    private func register(_ local: Session, key: String, on service: any AuthService) async throws -> Session {
        let proof = try? personal?.proof(of: key)
        let signIn = try await CallContext.$idempotencyKey.withValue(key) {
            try await CallContext.$idempotencyProof.withValue(proof) { try await service.signInAnonymously(flow: flowID) }
        }
        let session = Session(signIn.session, receivedAt: clock.nowMilliseconds())
        try pendingRucks.reassign(from: local.userID, to: session.userID)
        return session
    }

    private func perform(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        switch request.operation {
        case .health:
            return CallOutput(values: ["service_status": .text(try await service.health())])
        case .signInAnonymously:
            let signIn = try await service.signInAnonymously(flow: flowID)
            return CallOutput(
                session: Session(signIn.session, receivedAt: clock.nowMilliseconds()),
                values: ["user_id": .text(signIn.session.userID), "name_options": .list(signIn.nameOptions)])
        case .chooseName:
            let name = request.inputs["chosen_name"] ?? ""
            let profile = try await service.chooseName(accessToken: try session(of: request).accessToken, name: name)
            return CallOutput(values: ["display_name": .text(profile.displayName ?? name)])
        case .refreshSession:
            return CallOutput(session: try await refresher.refresh(try session(of: request), now: clock.nowMilliseconds(), using: service))
        case .motivation:
            let message = try await service.motivation(accessToken: try session(of: request).accessToken)
            return CallOutput(values: ["motivation": .text(message)])
        case .loadAccount:
            // Rucks this account kept on this device while offline go up first.
            let current = try session(of: request)
            try await syncPendingRucks(of: current, on: service)
            let values = try await accountValues(accessToken: current.accessToken, on: service)
            guard current.isAnonymous, values["email"]?.text?.isEmpty == false else { return CallOutput(values: values) }
            // The service says this guest has an email: a link whose answer a kill or a
            // lost reply never brought. The session is renewed to say so too.
            return CallOutput(session: try await refresher.refresh(current, now: clock.nowMilliseconds(), using: service), values: values)
        case .logRuck:
            let owner = try session(of: request)
            let access = owner.accessToken
            let entry = Self.ruckEntry(request, stamp: stamp())
            do {
                try await syncPendingRucks(of: owner, on: service)
                var rucks = try await service.records(accessToken: access)["rucks"].flatMap(Self.list) ?? []
                // A retry whose first try was written finds it there: the same list again.
                if !rucks.contains(entry) { rucks.append(entry) }
                try await service.putRecord(accessToken: access, key: "rucks", value: .list(rucks))
                return CallOutput(values: ["rucks": .list(rucks), "distance_km": .text(""), "duration_min": .text("")])
            } catch let error as ServiceError where error.code.isUnreachable {
                return try keptOffline(entry, of: owner, request)
            }
        case .linkEmail:
            let issued = try await service.linkEmail(
                flow: flowID, accessToken: try session(of: request).accessToken,
                email: request.inputs["email"] ?? "", password: request.inputs["password"] ?? "")
            knownDevice.keep(issued.deviceToken, for: request.inputs["email"] ?? "")
            return CallOutput(session: Session(issued, receivedAt: clock.nowMilliseconds()), values: try await accountValues(accessToken: issued.accessToken, on: service))
        case .logIn:
            // A guest's own offline rucks go up with the guest's session: they stay with
            // the guest account, as the screen says, never with the one logged in to. Its
            // token goes with the log-in, so a purchase (Pro) follows the person.
            let guest = await departingGuest(request, on: service)
            if let guest { try await syncPendingRucks(of: guest, on: service) }
            let email = request.inputs["email"] ?? ""
            // A device that signed in to this email before says so: strangers' guesses at
            // the account never lock it out.
            let issued = try await CallContext.$deviceToken.withValue(knownDevice.token(for: email)) {
                try await service.login(flow: flowID, email: email, password: request.inputs["password"] ?? "", guestAccessToken: guest?.accessToken)
            }
            knownDevice.keep(issued.deviceToken, for: email)
            return CallOutput(session: Session(issued, receivedAt: clock.nowMilliseconds()), values: try await accountValues(accessToken: issued.accessToken, on: service))
        case .signOut:
            // The account's own offline rucks go up with its session first, then the new
            // guest: offline, this fails and nothing has changed.
            let account = try session(of: request)
            try await syncPendingRucks(of: account, on: service)
            let guest = try await service.signInAnonymously(flow: flowID)
            try? await service.logout(refreshToken: account.refreshToken)
            return CallOutput(session: Session(guest.session, receivedAt: clock.nowMilliseconds()), values: try await accountValues(accessToken: guest.session.accessToken, on: service))
        case .purchasePro:
            try await service.putRecord(accessToken: try session(of: request).accessToken, key: "pro", value: .flag(true))
            return CallOutput(values: try await accountValues(accessToken: try session(of: request).accessToken, on: service))
        case .setUsername:
            let username = (request.inputs["username"] ?? "").trimmingCharacters(in: .whitespaces)
            _ = try await service.updateProfile(accessToken: try session(of: request).accessToken, fields: ["display_name": .text(username)])
            return CallOutput(values: try await accountValues(accessToken: try session(of: request).accessToken, on: service))
        case .connectServer:
            let address = (request.inputs["server_url"] ?? "").trimmingCharacters(in: .whitespaces)
            var normalised = address.hasSuffix("/") ? String(address.dropLast()) : address
            // The API's own base, as a server's docs give it, is the server.
            if normalised.hasSuffix("/api/v1") { normalised.removeLast("/api/v1".count) }
            _ = try await services.service(for: normalised).health()
            return CallOutput(values: ["server_url": .text(normalised)])
        case .register:
            let issued = try await service.register(
                flow: flowID, name: request.inputs["name"] ?? "", email: request.inputs["email"] ?? "",
                password: request.inputs["password"] ?? "")
            knownDevice.keep(issued.deviceToken, for: request.inputs["email"] ?? "")
            return CallOutput(session: Session(issued, receivedAt: clock.nowMilliseconds()), values: ["children": .list([])])
        case .acceptInvite:
            let code = Self.inviteCode(from: request.inputs["invite_code"] ?? "")
            let accepted = try await service.acceptInvite(accessToken: try session(of: request).accessToken, code: code)
            var values = try await childrenValues(accessToken: try session(of: request).accessToken, on: service)
            values["child_name"] = .text(accepted.child.name)
            values["shared_by"] = .text(accepted.sharedBy)
            return CallOutput(values: values)
        case .loadChildren:
            return CallOutput(values: try await childrenValues(accessToken: try session(of: request).accessToken, on: service))
        case .addChild:
            let access = try session(of: request).accessToken
            let birth = request.inputs["birth_date"].flatMap { $0.isEmpty ? nil : $0 }
            _ = try await service.addChild(accessToken: access, name: request.inputs["baby_name"] ?? "", birthDate: birth)
            return CallOutput(values: try await childrenValues(accessToken: access, on: service))
        case .createInvite:
            let access = try session(of: request).accessToken
            guard let child = try await service.children(accessToken: access).first else {
                throw ServiceError(.notFound, "Add a baby first, then invite someone to it.")
            }
            let invite = try await service.createInvite(accessToken: access, childID: child.id)
            return CallOutput(values: [
                "invite_code_created": .text(invite.code),
                "invite_link": .text("babybasics://invite?code=\(invite.code)"),
                "invite_child": .text(child.name),
            ])
        case .sendPhoneCode:
            guard let number = PhoneNumber(country: request.inputs["country"] ?? "", digits: request.inputs["phone"] ?? "") else {
                throw ServiceError(.invalidInput, "Please enter a valid phone number")
            }
            let sent = try await service.sendPhoneCode(phone: number.e164)
            return CallOutput(values: ["phone_e164": .text(sent.phone), "sms_code": .text("")])
        case .verifyPhoneCode:
            let signIn = try await service.verifyPhoneCode(
                flow: flowID, phone: request.inputs["phone_e164"] ?? "", code: request.inputs["sms_code"] ?? "")
            return try await signedIn(signIn, on: service)
        case .socialSignIn:
            // The app's half of the provider's protocol: a fresh nonce, sent to the
            // provider and again with its token, so a token minted for another sign-in fails.
            let provider = request.inputs["provider"] ?? ""
            let nonce = UUID().uuidString
            let token: String
            do {
                token = try await service.mockIdentityToken(
                    provider: provider, account: request.inputs["social_account"] ?? "", audience: MockIdentityProvider.audience, nonce: nonce)
            } catch let error as ServiceError where error.code == .notFound {
                // A server without --dev serves no mock provider, and has no real one yet.
                throw SocialProvider.unavailable(provider)
            }
            let signIn = try await service.socialSignIn(flow: flowID, provider: provider, idToken: token, nonce: nonce)
            return try await signedIn(signIn, on: service)
        case .loadProfile:
            return CallOutput(values: Self.profileValues(try await service.profile(accessToken: try session(of: request).accessToken)))
        case .saveProfile, .finishProfile:
            var fields = request.fields.mapValues { value -> FieldValue in
                switch value {
                case .text(let text): .text(text.trimmingCharacters(in: .whitespaces))
                case .list(let items): .list(items)
                }
            }
            if request.operation == .finishProfile { fields["profile_complete"] = .flag(true) }
            let profile = try await service.updateProfile(accessToken: try session(of: request).accessToken, fields: fields)
            return CallOutput(values: Self.profileValues(profile))
        case .logOut:
            // Offline, the service's copy of the session simply expires; this device forgets it now.
            try? await service.logout(refreshToken: try session(of: request).refreshToken)
            return CallOutput(signedOut: true)
        case .openHub:
            return try await openHub(request, on: service)
        case .prepareStore, .fetchConfig, .preloadContent, .checkCompatibility, .validateHiding:
            return try await device.perform(request, on: service)
        }
    }

    /// A phone or social sign-in: the session, and the profile so far (a returning user's
    /// finished profile goes straight to the end).
    private func signedIn(_ signIn: SignIn, on service: any AuthService) async throws -> CallOutput {
        let profile = try await service.profile(accessToken: signIn.session.accessToken)
        var values = Self.profileValues(profile)
        values["is_new_user"] = .text(signIn.isNewUser ? "true" : "false")
        return CallOutput(session: Session(signIn.session, receivedAt: clock.nowMilliseconds()), values: values)
    }

    /// MIGA's hub. A device set up offline (local-only) catches up once the service
    /// answers: it signs in as a guest if setup could not (under the hub call's own key,
    /// kept before it left), fetches the content, and says it is no longer local-only.
    /// Still offline, the hub opens as it was.
    private func openHub(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let localOnly = request.inputs["setup_mode"] == "local-only"
        let cached = device.contentIsCached
        // First the hub as it is: a damaged cache is said, set aside and rebuilt there.
        var output = try await device.perform(request, on: service)
        guard localOnly || !cached else { return output }
        var online = request
        if localOnly, online.session == nil {
            guard let signIn = try? await service.signInAnonymously(flow: flowID) else { return output }
            output.session = Session(signIn.session, receivedAt: clock.nowMilliseconds())
            online.session = output.session
        }
        guard await device.refreshContent(online, on: service), localOnly else { return output }
        output.values["setup_mode"] = .text("online")
        output.values["hub_summary"] = output.values["hub_summary"]?.list.map { .list($0.filter { $0 != DeviceSetup.localOnlyNote }) }
        return output
    }

    /// The children as the flow shows them: "Name (born YYYY-MM-DD)".
    private func childrenValues(accessToken: String, on service: any AuthService) async throws -> [String: Value] {
        let children = try await service.children(accessToken: accessToken)
        return ["children": .list(children.map { child in child.birthDate.map { "\(child.name) (born \($0))" } ?? child.name })]
    }

    /// The request's session; `run` already refuses an operation that needs one without it.
    private func session(of request: CallRequest) throws -> Session {
        guard let session = request.session else { throw ServiceError.sessionRejected }
        return session
    }

    /// The guest this device leaves at a log-in, with a usable access token (renewed if it
    /// expired, as a guest unused for a day has); nil without a guest, or one the service
    /// no longer renews: its rucks then stay on this device with it, never with the account.
    private func departingGuest(_ request: CallRequest, on service: any AuthService) async -> Session? {
        guard let guest = request.session, guest.isAnonymous else { return nil }
        let now = clock.nowMilliseconds()
        guard guest.accessExpired(atMilliseconds: now) else { return guest }
        return try? await refresher.refresh(guest, now: now, using: service)
    }

    private func withTimeout<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let limit = timeout
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw ServiceError.noAnswerInTime
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}
