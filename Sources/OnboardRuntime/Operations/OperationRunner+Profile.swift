import FlowEngine
import FoundationEssentials
import InputRules
import ServiceAPI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// ABBY on the runner's side: phone and social sign-in, and the profile saved step by step.
extension OperationRunner {
    func sendPhoneCode(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        guard let number = PhoneNumber(country: request.inputs["country"] ?? "", digits: request.inputs["phone"] ?? "") else {
            throw ServiceError(.invalidInput, "Please enter a valid phone number")
        }
        let sent = try await service.sendPhoneCode(phone: number.e164)
        return CallOutput(values: ["phone_e164": .text(sent.phone), "sms_code": .text("")])
    }

    func verifyPhoneCode(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let signIn = try await service.verifyPhoneCode(
            flow: flowID, phone: request.inputs["phone_e164"] ?? "", code: request.inputs["sms_code"] ?? "")
        return try await signedIn(signIn, on: service)
    }

    func socialSignIn(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        // The app's half of the provider's protocol: a fresh nonce, sent to the
        // provider and again with its token, so a token minted for another sign-in fails.
        let provider = request.inputs["provider"] ?? ""
        let nonce = UUID().uuidString
        let token: String
        do {
            token = try await service.mockIdentityToken(
                provider: provider, account: request.inputs["social_account"] ?? "", audience: SocialProvider.clientAudience, nonce: nonce)
        } catch let error as ServiceError where error.code == .notFound {
            // A server without --dev serves no mock provider, and has no real one yet.
            throw SocialProvider.unavailable(provider)
        }
        let signIn = try await service.socialSignIn(flow: flowID, provider: provider, idToken: token, nonce: nonce)
        return try await signedIn(signIn, on: service)
    }

    func saveProfile(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        var fields = request.fields.mapValues { value -> FieldValue in
            switch value {
            case .text(let text): .text(text.trimmingWhitespace)
            case .list(let items): .list(items)
            }
        }
        if request.operation == .finishProfile { fields["profile_complete"] = .flag(true) }
        let profile = try await service.updateProfile(accessToken: try session(of: request).accessToken, fields: fields)
        // Only what this screen saved comes back: an answer revised on a later step and
        // not saved yet (Esc back to step 5, Continue) is the answer, not the service's
        // older copy of it.
        return CallOutput(values: Self.profileValues(profile).filter { fields[$0.key] != nil || $0.key == "profile_complete" })
    }

    /// A sign-in to approve in a browser: the codes to show, and when they run out on
    /// this device's clock.
    func startSocialDevice(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let started = try await service.startSocialDevice(flow: flowID, provider: request.inputs["provider"] ?? "")
        // The embedded mock has no web page to open: its approval is made here. Any other
        // answer must name a web page and the codes, or it is the service's mistake, said
        // as one (not the mock's consent screen for a server's garbled answer).
        let onTheWeb = Browser.isWebAddress(started.verificationURI) && Browser.isWebAddress(started.verificationURIComplete)
        guard onTheWeb || started.verificationURI.hasPrefix(Self.mockAddress), !started.userCode.isEmpty, !started.deviceCode.isEmpty,
            started.expiresIn > 0, started.interval > 0
        else { throw ServiceError(.badResponse, "The service's answer to the sign-in could not be used. Try again in a moment.") }
        let expiresAt = clock.nowMilliseconds() + started.expiresIn * 1000
        openDeviceCodes.add(.init(deviceCode: started.deviceCode, service: request.service, expiresAt: expiresAt, process: getpid()))
        let opens = onTheWeb && device.browser.canOpen
        return CallOutput(values: [
            "user_code": .text(started.userCode), "verification_uri": .text(started.verificationURI),
            "verification_uri_complete": .text(started.verificationURIComplete), "device_code": .text(started.deviceCode),
            "poll_interval": .text(String(started.interval)),
            "device_expires_at": .text(String(expiresAt)),
            "device_approval": .text(onTheWeb ? "browser" : "here"), "browser": .text(opens ? "yes" : "no"),
            "browser_hint": .text(opens ? "Press Enter to open it in your browser." : ""),
        ])
    }

    /// Where the embedded mock's device sign-ins point: no page, approved in the terminal.
    static let mockAddress = "mock://"

    /// The embedded mock's approval in the terminal: the mock provider's ID token for
    /// `social_account` (a fresh nonce, as `socialSignIn`) approves the waiting sign-in,
    /// and one poll then gets the session.
    func approveSocialDevice(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let nonce = UUID().uuidString
        let token = try await service.mockIdentityToken(
            provider: request.inputs["provider"] ?? "", account: request.inputs["social_account"] ?? "",
            audience: SocialProvider.clientAudience,
            nonce: nonce)
        try await service.approveSocialDevice(userCode: request.inputs["user_code"] ?? "", idToken: token, nonce: nonce)
        return try await pollSocialDevice(request, on: service)
    }

    /// The sign-in given up on this device (Cancel, Esc): the service withdraws its code.
    func withdrawSocialDevice(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let deviceCode = request.inputs["device_code"] ?? ""
        try await service.withdrawSocialDevice(deviceCode: deviceCode)
        openDeviceCodes.remove(deviceCode)
        return CallOutput(values: [:])
    }

    /// Codes a run that ended left open (a quit, a kill, a closed terminal on the code
    /// screen), withdrawn at the next launch; one the service cannot be told about now
    /// stays for the launch after, until it runs out.
    public func withdrawLeftDeviceCodes() async {
        for entry in openDeviceCodes.left(now: clock.nowMilliseconds()) {
            guard let service = try? services.service(for: entry.service) else { continue }
            if (try? await withTimeout { try await service.withdrawSocialDevice(deviceCode: entry.deviceCode) }) != nil {
                openDeviceCodes.remove(entry.deviceCode)
            }
        }
    }

    var openDeviceCodes: OpenDeviceCodes { OpenDeviceCodes(folder: device.folder, personal: personal) }

    /// The sign-in's page in this person's browser (never in an SSH session).
    func openBrowser(_ request: CallRequest) throws -> CallOutput {
        do {
            try device.browser.open(request.inputs["verification_uri_complete"] ?? "")
        } catch {
            throw ServiceError(.notFound, "No browser can be opened here. Open the address on any device instead.")
        }
        return CallOutput(values: [:])
    }

    /// One poll; once approved, the session and profile, and the spent device code forgotten.
    func pollSocialDevice(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let deviceCode = request.inputs["device_code"] ?? ""
        let signIn: SignIn
        do {
            signIn = try await service.pollSocialDevice(flow: flowID, deviceCode: deviceCode)
        } catch let error as ServiceError where [.accessDenied, .expiredToken].contains(error.code) {
            openDeviceCodes.remove(deviceCode)
            throw error
        }
        openDeviceCodes.remove(deviceCode)
        var output = try await signedIn(signIn, on: service)
        output.values["device_code"] = .text("")
        return output
    }

    /// A phone or social sign-in: the session, and the profile so far (a returning user's
    /// finished profile goes straight to the end).
    func signedIn(_ signIn: SignIn, on service: any AuthService) async throws -> CallOutput {
        let profile = try await service.profile(accessToken: signIn.session.accessToken)
        var values = Self.profileValues(profile)
        values["is_new_user"] = .text(signIn.isNewUser ? "true" : "false")
        return CallOutput(session: Session(signIn.session, receivedAt: clock.nowMilliseconds()), values: values)
    }
}
