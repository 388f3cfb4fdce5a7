import FlowEngine
import FoundationEssentials
import Installation
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
    let refresher: SessionRefresher
    /// What happens on the device itself (MIGA's local store, simulated capabilities).
    public let device: DeviceSetup
    /// Seals what the runner keeps on the device (rucks logged offline) with the state
    /// folder's data key; nil without a session file (tests without a state folder).
    let personal: PersonalData?
    /// The folder's session, whose holder each call checks (`FolderIdentity`).
    let sessionFile: SessionFile?

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
        self.sessionFile = sessionFile
        personal = sessionFile.map { file in
            PersonalData(
                secrets: file.secrets,
                stateDirectory: PathText.folder(of: PathText.folder(of: file.path)))
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

    /// `folder`: whom the calling window expects its folder to hold; the call is not sent
    /// when the folder holds someone else (`IdentityChanged`).
    public func run(_ request: CallRequest, folder: FolderIdentity? = nil) async -> Result<CallOutput, ServiceFailure> {
        if request.operation.needsSession, request.session == nil {
            return .failure(ServiceFailure(code: "unauthorized", message: "You are not signed in."))
        }
        do {
            // The key, and this device's proof of it, travel with every service call this
            // operation makes (task-local).
            let proof = request.idempotencyKey.flatMap { try? personal?.proof(of: $0) }
            let output = try await CallContext.$idempotencyKey.withValue(request.idempotencyKey) {
                try await CallContext.$idempotencyProof.withValue(proof) {
                    try await withTimeout {
                        try await performAsTheFolderHolds(folder, request) {
                            try await performRegisteringFirst(request, on: try services.service(for: request.service))
                        }
                    }
                }
            }
            return .success(output)
        } catch let error as ServiceError {
            return .failure(ServiceFailure(code: error.code.rawValue, message: error.message, retryAfter: error.retryAfter))
        } catch let refused as KeptForItsOwner {
            let error = refused.error
            return .failure(
                ServiceFailure(code: error.code.rawValue, message: error.message, retryAfter: error.retryAfter, kept: refused.work))
        } catch is IdentityChanged {
            return .failure(ServiceFailure(code: IdentityChanged.code, message: FolderIdentity.note(nowHolding: sessionFile?.holder())))
        } catch let failed as FailedAfterRegistering {
            let error = failed.error
            return .failure(
                ServiceFailure(code: error.code.rawValue, message: error.message, retryAfter: error.retryAfter, session: failed.session))
        } catch {
            return .failure(ServiceFailure(code: "server_error", message: "The service failed: \(error)"))
        }
    }

    /// The call goes only as the identity the folder holds. One that may change it runs
    /// under the folder's identity lock and claims the folder with its session before the
    /// lock is let go, so a second window waiting for the lock finds the folder taken.
    private func performAsTheFolderHolds(
        _ folder: FolderIdentity?, _ request: CallRequest, _ perform: @Sendable () async throws -> CallOutput
    ) async throws -> CallOutput {
        guard let folder, let file = sessionFile else { return try await perform() }
        guard request.operation.mayChangeIdentity else {
            guard folder.allows(file.holder()) else { throw IdentityChanged() }
            return try await perform()
        }
        return try await file.withIdentityLock(patience: timeout) {
            let holder = file.holder()
            guard folder.allows(holder) else { throw IdentityChanged() }
            let output = try await perform()
            if let session = output.session, session.userID != holder { try file.save(session) }
            return output
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
            // Two calls have an answer on this device alone; any other fails as it is.
            if request.operation == .loadAccount {
                return CallOutput(values: [
                    "email": .text(""), "username": .text(""), "account_status": .text("Guest on this device"), "pro": .text("false"),
                    "rucks": .list(PendingRucks.merged([], pendingRucks.rucks(of: local.userID), marking: true)),
                    "user_id": .text(local.userID),
                ])
            }
            if request.operation == .logRuck { return try keptOffline(Self.ruckEntry(request, stamp: stamp()), of: local, request) }
            throw error
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

    /// The service refused the call, but what the person made was kept on this device
    /// for its owner first.
    struct KeptForItsOwner: Error {
        let error: ServiceError
        let work: KeptWork
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
        case .loadAccount: return try await loadAccount(request, on: service)
        case .logRuck: return try await logRuck(request, on: service)
        case .linkEmail: return try await linkEmail(request, on: service)
        case .logIn: return try await logIn(request, on: service)
        case .signOut: return try await signOut(request, on: service)
        case .purchasePro: return try await purchasePro(request, on: service)
        case .setUsername: return try await setUsername(request, on: service)
        case .connectServer: return try await connectServer(request, on: service)
        case .register: return try await register(request, on: service)
        case .acceptInvite: return try await acceptInvite(request, on: service)
        case .loadChildren:
            return CallOutput(values: try await childrenValues(accessToken: try session(of: request).accessToken, on: service))
        case .addChild: return try await addChild(request, on: service)
        case .createInvite: return try await createInvite(request, on: service)
        case .sendPhoneCode: return try await sendPhoneCode(request, on: service)
        case .verifyPhoneCode: return try await verifyPhoneCode(request, on: service)
        case .socialSignIn: return try await socialSignIn(request, on: service)
        case .startSocialDevice: return try await startSocialDevice(request, on: service)
        case .pollSocialDevice: return try await pollSocialDevice(request, on: service)
        case .withdrawSocialDevice: return try await withdrawSocialDevice(request, on: service)
        case .approveSocialDevice: return try await approveSocialDevice(request, on: service)
        case .openBrowser: return try openBrowser(request)
        case .loadProfile:
            return CallOutput(values: Self.profileValues(try await service.profile(accessToken: try session(of: request).accessToken)))
        case .saveProfile, .finishProfile: return try await saveProfile(request, on: service)
        case .logOut:
            // Offline, the service's copy of the session simply expires; this device forgets it now.
            try? await service.logout(refreshToken: try session(of: request).refreshToken)
            return CallOutput(signedOut: true)
        case .openHub:
            return try await openHub(request, on: service)
        // What the device does itself (MIGA): the service is asked only for config and content.
        case .prepareStore: return try device.prepareStore()
        case .fetchConfig: return await device.fetchConfig(service)
        case .preloadContent: return try await device.preloadContent(request, service)
        case .checkCompatibility: return device.checkCompatibility()
        case .validateHiding: return try device.validateHiding()
        }
    }

    /// MIGA's hub. A device set up offline (local-only) catches up once the service
    /// answers: it signs in as a guest if setup could not (under the hub call's own key,
    /// kept before it left), fetches the content, and says it is no longer local-only.
    /// Still offline, the hub opens as it was.
    private func openHub(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let localOnly = request.inputs["setup_mode"] == "local-only"
        let cached = device.contentIsCached
        // First the hub as it is: a damaged cache is said, set aside and rebuilt there.
        var output = device.openHub(request)
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

    /// The request's session; `run` already refuses an operation that needs one without it.
    func session(of request: CallRequest) throws -> Session {
        guard let session = request.session else { throw ServiceError.sessionRejected }
        return session
    }

    func withTimeout<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let limit = timeout
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw ServiceError.noAnswerInTime
            }
            defer { group.cancelAll() }
            // Two tasks, so the first to end is there; the sleeper throws if it wins.
            guard let first = try await group.next() else { throw ServiceError.noAnswerInTime }
            return first
        }
    }
}
