#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PtyShim
import Synchronization

/// A demo server's warm `onboard` (`onboard --session-zygote ARGUMENTS…`), started once:
/// each session is forked from it instead of started from nothing, so the runtime's first
/// questions (most of a start, `benchmarks/README.md`) are answered once for them all.
/// Sessions are the zygote's children; their exit statuses come back on a pipe each.
/// When the zygote cannot start a session (gone, or it refused to fork), nil says so and
/// the server starts the program as before.
public final class SessionZygote: Sendable {
    /// The command line that makes `onboard` a zygote; the rest is the sessions' command
    /// line, which it warms up on.
    public static let flag = "--session-zygote"

    public let pid: pid_t
    private let socket: Int32
    /// Whether the zygote still answers; held across a request, so requests take turns.
    private let answering = Mutex(true)

    /// Starts `executable` as a zygote for sessions run with `arguments`; nil when it
    /// cannot be started.
    public init?(executable: String, warmingUpOn arguments: [String]) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { return nil }
        let argv = ([executable, Self.flag] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let failure = onboard_spawn_helper(executable, argv, environ, pair[1], &pid)
        close(pair[1])
        guard failure == 0 else {
            close(pair[0])
            return nil
        }
        // A zygote that stops answering is given up, not waited on by every session.
        var patience = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        self.pid = pid
        socket = pair[0]
    }

    /// The zygote a demo server forks its sessions from; none with
    /// `ONBOARD_SESSION_ZYGOTE=off`, when each session starts from nothing as before (to
    /// measure the two, or to set the zygote aside), or when it cannot start.
    public static func forSessions(of executable: String, arguments: [String]) -> SessionZygote? {
        guard getenv("ONBOARD_SESSION_ZYGOTE").map({ String(cString: $0) }) != "off" else { return nil }
        return SessionZygote(executable: executable, warmingUpOn: arguments)
    }

    deinit {
        close(socket)
    }

    /// A session on `follower` with `arguments` and exactly `environment`: its pid and
    /// the descriptor its wait status will be written to (-1 when the server had none
    /// free to take it); nil when the zygote cannot, and nothing was started.
    public func start(arguments: [String], environment: [String: String], follower: Int32) -> (pid: pid_t, exits: Int32)? {
        let request = ZygoteRequest(arguments: arguments, environment: environment).encoded
        return answering.withLock { answering in
            guard answering else { return nil }
            var (pid, exits): (pid_t, Int32) = (0, -1)
            let failure = request.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { onboard_zygote_request(socket, $0.baseAddress, $0.count, follower, &pid, &exits) }
            }
            switch failure {
            case 0:
                return (pid, exits)
            case EPIPE, ECONNRESET, EAGAIN, EWOULDBLOCK, EMSGSIZE:
                // Gone, silent, or out of step: the server starts its sessions itself now.
                answering = false
                shutdown(socket, Int32(SHUT_RDWR))
                var status: Int32 = 0
                _ = waitpid(self.pid, &status, WNOHANG)
                return nil
            default:
                return nil  // this session could not be forked (out of processes): tried as before
            }
        }
    }

    /// Whether the zygote still starts sessions.
    public var isAnswering: Bool { answering.withLock { $0 } }
}
