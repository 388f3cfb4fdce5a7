import FlowEngine
import ScreenTable

/// One folder, one identity at a time, across processes. Every window remembers whom it
/// last saw its folder hold (the user id in `session.json`, or none); before it calls
/// the service or writes the session or progress, it compares that with the file. A
/// difference means another window on the folder signed in, signed out or became a new
/// guest: this window then follows the folder (a relaunch from what is on disk, said on
/// screen) instead of writing as an identity the folder no longer holds. Calls that can
/// change the identity run under the folder's identity lock and claim the folder before
/// the lock is let go, so two windows pressing Start together make one account.
public struct FolderIdentity: Sendable, Equatable {
    /// The holders this window may write as: the one it last saw and, once a call's
    /// answer made it someone new, that one too.
    public var acceptable: Set<String?>

    public init(acceptable: Set<String?>) {
        self.acceptable = acceptable
    }

    public func allows(_ holder: String?) -> Bool { acceptable.contains(holder) }

    /// What a window says when it follows its folder.
    public static func note(nowHolding holder: String?) -> String {
        holder == nil
            ? "Another Onboard window on this folder signed out, so this one did too."
            : "Another Onboard window on this folder changed who is signed in here, so this window follows it."
    }

    /// What a window says when another saved the folder's progress and it went on from it.
    public static let progressNote = "Another Onboard window on this folder saved your answers, so this window goes on from them."
}

/// The folder holds someone other than the window expected: nothing was sent.
public struct IdentityChanged: Error {
    /// The failure code the session turns into following the folder.
    public static let code = "identity_changed"
}

extension Operation {
    /// The call may leave the folder holding someone else (a sign-in, a new guest, a
    /// sign-out): run under the identity lock. Said for every operation, no `default:`.
    public var mayChangeIdentity: Bool {
        switch self {
        case .signInAnonymously, .logIn, .signOut, .register, .verifyPhoneCode, .socialSignIn, .pollSocialDevice,
            .approveSocialDevice, .logOut, .openHub:
            true
        case .health, .chooseName, .refreshSession, .motivation, .loadAccount, .logRuck, .linkEmail, .purchasePro,
            .setUsername, .connectServer, .acceptInvite, .loadChildren, .addChild, .createInvite, .sendPhoneCode,
            .startSocialDevice, .withdrawSocialDevice, .openBrowser, .loadProfile, .saveProfile, .finishProfile, .prepareStore,
            .fetchConfig,
            .preloadContent, .checkCompatibility, .validateHiding:
            false
        }
    }
}
