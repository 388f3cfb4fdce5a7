import ScreenTable
import Testing

/// Issue 33: the operation vocabulary's switches used `default:`, so a new operation was
/// never asked whether it needs a session or creates something. Each now says so in one
/// declaration; these are the answers the engine and runner relied on before.
@Suite struct OperationTraitsTests {
    @Test func theOperationsWithoutASessionAreTheOnesThatNeverHadOne() {
        let without = Set(Operation.allCases.filter { !$0.needsSession })
        #expect(
            without == [
                .health, .signInAnonymously, .logIn, .connectServer, .register, .sendPhoneCode, .verifyPhoneCode, .socialSignIn,
                .startSocialDevice, .pollSocialDevice, .withdrawSocialDevice, .approveSocialDevice, .openBrowser, .prepareStore,
                .fetchConfig, .preloadContent,
                .checkCompatibility, .validateHiding, .openHub,
            ])
    }

    @Test func theOperationsSentWithAnIdempotencyKeyAreTheOnesThatCreateOrSpend() {
        let keyed = Set(Operation.allCases.filter(\.createsOrSpends))
        #expect(
            keyed == [
                .signInAnonymously, .signOut, .register, .linkEmail, .sendPhoneCode, .verifyPhoneCode, .socialSignIn,
                .addChild, .createInvite, .acceptInvite, .logRuck, .openHub,
            ])
    }

    @Test func inputsAreTheContextKeysEachReads() {
        #expect(Operation.register.inputs == ["name", "email", "password"])
        #expect(Operation.openHub.listInputs == ["interests", "apps"])
        #expect(Operation.logRuck.listInputs == ["rucks"])
        #expect(Operation.pollSocialDevice.inputs == ["device_code"])
        #expect(Operation.withdrawSocialDevice.inputs == ["device_code"])
        #expect(Operation.approveSocialDevice.inputs == ["provider", "social_account", "user_code", "device_code"])
        #expect(Operation.allCases.filter { !$0.inputs.isEmpty }.count == 18)
    }
}
