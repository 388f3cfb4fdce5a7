@testable import FlowEngine

extension Session {
    /// A session as the service issues one, for stories: `user`'s tokens issued at `at`
    /// (seconds, the service's clock), the access token living `accessFor` seconds and the
    /// refresh token `refreshFor` (nil: a guest's, which never expires).
    static func issued(
        to user: String = "u_1", guest: Bool = true, at now: Int64, accessFor: Int64 = 3600, refreshFor: Int64? = nil,
        token: String = "at", refreshToken: String = "rt", created: Int64 = 0, complete: Bool = false
    ) -> Session {
        Session(
            userID: user, accessToken: token, accessExpiresAt: now + accessFor, refreshToken: refreshToken,
            refreshExpiresAt: refreshFor.map { now + $0 }, isAnonymous: guest, createdAt: created, lastAuthenticated: created,
            onboardingComplete: complete)
    }
}
