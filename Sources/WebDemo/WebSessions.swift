import DemoSessions
import SessionZygote
import Foundation
import Synchronization

/// The sessions of `onboard serve-web`: found by their tokens, started within the
/// server's limits (`--max-sessions` at once, `--per-address` new ones from one address
/// in ten minutes), and ended when abandoned.
final class WebSessions: Sendable {
    struct Refusal: Error {
        let message: String
    }

    let settings: WebDemoServer.Settings
    let registry: SessionRegistry
    /// `TERMINFO` for the sessions' programs (`XtermTerminfo`).
    let terminfo: String
    /// The sessions that can be watched: these, and a demo server's beside (serve-ssh).
    let watched: WatchDirectory
    private let state = Mutex(State())

    private struct State {
        var byToken: [String: WebSession] = [:]
        var starts: [String: [ContinuousClock.Instant]] = [:]
    }

    static let addressWindow = Duration.seconds(600)

    /// Starts the sessions (forked from a warm onboard when there is one).
    private let starter: SessionStarter

    init(settings: WebDemoServer.Settings, terminfo: String, watched: WatchDirectory) {
        self.settings = settings
        starter = SessionStarter(
            executable: settings.executable, arguments: settings.arguments,
            zygote: settings.watchOnly ? nil : SessionZygote.forSessions(of: settings.executable, arguments: settings.arguments))
        self.terminfo = terminfo
        self.watched = watched
        registry = SessionRegistry(limit: settings.maxSessions)
    }

    var isFull: Bool { registry.count >= registry.limit }

    var fullMessage: String {
        "Sorry, the demo is full (\(registry.limit) session\(registry.limit == 1 ? "" : "s")). Please try again in a little while."
    }

    /// A new session for a visitor at `address` (their page `columns` x `rows`);
    /// `connection` is what the program sees as `SSH_CONNECTION`, `watchBase` the
    /// address a watch link starts with.
    func start(address: String, connection: String, columns: Int, rows: Int, watchBase: String) async throws(Refusal) -> WebSession {
        let now = ContinuousClock.now
        let allowed = state.withLock { state in
            let recent = (state.starts[address] ?? []).filter { now - $0 < Self.addressWindow }
            guard recent.count < settings.perAddress else { return false }
            state.starts[address] = recent + [now]
            return true
        }
        guard allowed else {
            throw Refusal(
                message: "Too many new sessions from your address: please wait a few minutes, or reload to go on with the one you have.")
        }
        guard registry.reserve() else {
            throw Refusal(message: fullMessage)
        }
        let folder = settings.stateFolder + "/web-sessions/" + UUID().uuidString.lowercased()
        let watching = Tokens.make()
        let session: WebSession
        do {
            let process = try await starter.start(
                folder: folder,
                environment: SessionEnvironment.make(
                    term: XtermTerminfo.name, connection: connection,
                    extra: ["TERMINFO": terminfo, "ONBOARD_WATCH_LINK": watchBase + "/watch#" + watching]),
                rows: rows, columns: columns)
            session = WebSession(process: process, folder: folder, watchToken: watching, columns: columns, rows: rows)
        } catch {
            registry.ended(nil)
            throw Refusal(message: "Onboard could not start: \(error)")
        }
        registry.started(session.process)
        state.withLock { state in
            state.byToken[session.token] = session
        }
        watched.add(session.viewers)
        session.run(stopping: { [registry] in registry.stopping }) { [self] ended in
            _ = state.withLock { $0.byToken.removeValue(forKey: ended.token) }
            watched.remove(ended.viewers)
            registry.ended(ended.pid)
        }
        return session
    }

    func session(resuming token: String) -> WebSession? {
        state.withLock { $0.byToken[token] }
    }

    /// Hangs up sessions no page came back to within the grace time, or idle too long;
    /// forgets starts older than the per-address window (else every address ever seen
    /// would stay).
    func endAbandoned() {
        let now = ContinuousClock.now
        let sessions = state.withLock { state in
            state.starts = state.starts.compactMapValues { starts in
                let recent = starts.filter { now - $0 < Self.addressWindow }
                return recent.isEmpty ? nil : recent
            }
            return Array(state.byToken.values)
        }
        for session in sessions {
            if let reason = session.abandonment(grace: settings.grace, idle: settings.idle) { session.hangUp(because: reason) }
        }
    }
}
