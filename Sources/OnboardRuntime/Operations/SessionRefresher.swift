import FlowEngine
import ServiceAPI
import ServiceClient

/// Renews sessions so that two refreshes never race: one at a time within the process
/// (callers wanting the same renewal share it), and across processes through the
/// session file's lock — a process that finds the file already renewed by another uses
/// that instead of spending the refresh token again.
public actor SessionRefresher {
    private let file: SessionFile?
    private var inFlight: [String: Task<Session, any Error>] = [:]

    public init(file: SessionFile?) {
        self.file = file
    }

    /// Renews `session` with the service it came from.
    /// `now`: the device's clock (ms).
    public func refresh(_ session: Session, now: Int64, using service: any AuthService) async throws -> Session {
        if let running = inFlight[session.refreshToken] { return try await running.value }
        let file = self.file
        let task = Task<Session, any Error> {
            guard let file else { return try await Self.renew(session, with: service, now: now) }
            return try await file.withLock {
                // Another window made the folder someone else's: this session is not renewed
                // over it (`FolderIdentity`).
                if let holder = file.holder(), holder != session.userID { throw IdentityChanged() }
                if let stored = try? file.load(), stored.userID == session.userID,
                    stored.refreshToken != session.refreshToken, !stored.accessExpired(atMilliseconds: now)
                {
                    return stored  // another process renewed it meanwhile
                }
                let renewed = try await Self.renew(session, with: service, now: now)
                try file.save(renewed)
                return renewed
            }
        }
        inFlight[session.refreshToken] = task
        defer { inFlight[session.refreshToken] = nil }
        return try await task.value
    }

    private static func renew(_ session: Session, with service: any AuthService, now: Int64) async throws -> Session {
        var renewed = Session(try await service.refresh(refreshToken: session.refreshToken), receivedAt: now)
        renewed.onboardingComplete = session.onboardingComplete
        return renewed
    }
}
