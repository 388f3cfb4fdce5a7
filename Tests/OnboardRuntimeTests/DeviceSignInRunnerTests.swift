import EmbeddedMock
import Foundation
import FlowEngine
import OnboardRuntime
import OnboardService
import SQLiteStore
import ServiceAPI
import ServiceClient
import Testing

/// Issue 34: ABBY's social sign-in as the runner makes it on the embedded mock, and the
/// QA faults that reach each of its error states on purpose.
@Suite struct DeviceSignInRunnerTests {
    let service = InProcessTransport(service: try! OnboardService(database: try! ServiceDatabase.inMemory()))

    func started(_ runner: OperationRunner) async throws -> [String: String] {
        let output = try await runner.run(CallRequest(id: 1, operation: .startSocialDevice, session: nil, inputs: ["provider": "google"]))
            .get()
        return output.values.compactMapValues(\.text)
    }

    func approve(_ runner: OperationRunner, _ started: [String: String]) async -> Result<CallOutput, ServiceFailure> {
        await runner.run(
            CallRequest(
                id: 2, operation: .approveSocialDevice, session: nil,
                inputs: [
                    "provider": "google", "social_account": "ana@example.org", "user_code": started["user_code"] ?? "",
                    "device_code": started["device_code"] ?? "",
                ]))
    }

    @Test func theEmbeddedMockApprovesHereAndTheSessionFollows() async throws {
        let runner = OperationRunner(service: service, flowID: "abby", device: DeviceSetup(simulation: ["browser": "yes"]))
        let codes = try await started(runner)
        #expect(codes["device_approval"] == "here", "no web page to open: the approval is made in the terminal")
        #expect(codes["browser"] == "no", "nothing to open in a browser")
        #expect(codes["user_code"]?.wholeMatch(of: /[B-Z]{4}-[B-Z]{4}/) != nil)
        let signedIn = try await approve(runner, codes).get()
        #expect(signedIn.session?.isAnonymous == false)
        #expect(signedIn.values["device_code"] == .text(""), "the spent code is forgotten")
        // A code approved and spent cannot be approved again.
        let again = await approve(runner, codes)
        #expect(again.failureCode == "expired_token")
    }

    /// Issue 45: a code a run left open (killed on the code screen) is kept in the folder
    /// from the moment it is shown, and the next launch withdraws it; one the poll got its
    /// answer for, or one withdrawn on leaving the screen, is gone from the folder.
    @Test func aCodeARunLeftOpenIsWithdrawnByTheNextLaunch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-codes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let runner = OperationRunner(service: service, flowID: "abby", device: DeviceSetup(folder: folder))
        let file = folder + "/open-device-codes.json"
        let left = try await started(runner)
        #expect(FileManager.default.fileExists(atPath: file), "kept before the code is shown")
        await runner.withdrawLeftDeviceCodes()
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect((await approve(runner, left)).failureCode == "expired_token", "withdrawn: nothing waits under the code")

        let given = try await started(runner)
        let withdrawn = await runner.run(
            CallRequest(id: 3, operation: .withdrawSocialDevice, session: nil, inputs: ["device_code": given["device_code"] ?? ""]))
        #expect(withdrawn.failureCode == nil)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect((await approve(runner, given)).failureCode == "expired_token")

        let approved = try await started(runner)
        #expect(try await approve(runner, approved).get().session != nil)
        #expect(!FileManager.default.fileExists(atPath: file), "answered: nothing left to withdraw")
    }

    /// Issue 46: a server's garbled answer (no web page to open) sent ABBY to the embedded
    /// mock's consent screen. It is the service's mistake, said as one.
    @Test func aGarbledAnswerIsTheServicesMistakeNotTheMocksConsentScreen() async throws {
        struct Garbled: AuthService {
            let answer: DeviceAuthorization
            func send<Call: WireCall>(_ call: Call, bearer: String?) async throws -> Call.Answer {
                guard let answer = answer as? Call.Answer else { throw ServiceError(.notFound, "not here") }
                return answer
            }
        }
        let good = DeviceAuthorization(
            deviceCode: "dc_1", userCode: "BCDF-GHJK", verificationURI: "https://abby.example/device",
            verificationURIComplete: "HTTPS://ABBY.EXAMPLE/D/BCDF-GHJK", expiresIn: 600, interval: 5)
        var garbled = [good, good, good, good]
        garbled[0].verificationURI = "javascript:alert(1)"
        garbled[1].verificationURIComplete = "file:///etc/passwd"
        garbled[2].deviceCode = ""
        garbled[3].interval = 0
        for answer in garbled {
            let runner = OperationRunner(service: Garbled(answer: answer), flowID: "abby")
            let result = await runner.run(CallRequest(id: 1, operation: .startSocialDevice, session: nil, inputs: ["provider": "google"]))
            #expect(result.failureCode == "bad_response", "\(answer)")
        }
        let runner = OperationRunner(service: Garbled(answer: good), flowID: "abby")
        let shown = try await started(runner)
        #expect(shown["device_approval"] == "browser")
    }

    @Test func aForgedProviderTokenIsRefused() async throws {
        let faulty = FaultInjectingService(wrapping: service, faults: [.forgedIDToken])
        let runner = OperationRunner(service: faulty, flowID: "abby")
        let result = await approve(runner, try await started(runner))
        #expect(result.failureCode == "unauthorized")
        #expect(result.failureMessage == "Sign in with Google could not be verified. Please try again.")
    }

    @Test func theSlowDownFaultAnswersEveryOtherPoll() async throws {
        let faulty = FaultInjectingService(wrapping: service, faults: [.slowDown])
        let runner = OperationRunner(service: faulty, flowID: "abby")
        let codes = try await started(runner)
        let poll = CallRequest(id: 3, operation: .pollSocialDevice, session: nil, inputs: ["device_code": codes["device_code"] ?? ""])
        #expect(await runner.run(poll).failureCode == "slow_down")
        #expect(await runner.run(poll).failureCode == "authorization_pending", "the next poll reaches the service")
        #expect(await runner.run(poll).failureCode == "slow_down")
    }

    @Test func theExpiredCodeFaultEndsThePoll() async throws {
        let faulty = FaultInjectingService(wrapping: service, faults: [.expiredDeviceCode])
        let runner = OperationRunner(service: faulty, flowID: "abby")
        let codes = try await started(runner)
        let poll = CallRequest(id: 3, operation: .pollSocialDevice, session: nil, inputs: ["device_code": codes["device_code"] ?? ""])
        #expect(await runner.run(poll).failureCode == "expired_token")
    }

    @Test func aBrowserOpensOnlyForAWebAddressAndOnlyWhereThePersonIs() {
        #expect(
            Browser(environment: ["DISPLAY": ":0", "SSH_CONNECTION": "10.0.0.2 5555 10.0.0.1 22", "PATH": "/usr/bin"]).canOpen == false)
        #expect(Browser(environment: ["PATH": "/usr/bin"]).canOpen == false, "no desktop session")
        #expect(throws: Browser.BrowserError.notAWebAddress) { try Browser(simulated: "yes").open("file:///etc/passwd") }
        #expect(throws: Browser.BrowserError.notAWebAddress) { try Browser(simulated: "yes").open("https://a.example/\u{1B}]0;x\u{07}") }
        #expect(throws: Never.self) { try Browser(simulated: "yes").open("HTTP://127.0.0.1:8080/D/BCDF-GHJK") }
    }
}

extension Result where Success == CallOutput, Failure == ServiceFailure {
    var failureCode: String? { if case .failure(let failure) = self { failure.code } else { nil } }
    var failureMessage: String? { if case .failure(let failure) = self { failure.message } else { nil } }
}
