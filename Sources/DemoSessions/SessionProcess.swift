import Foundation
import PtyShim
import SessionZygote

/// One session's `onboard` on its own pseudo-terminal: a new session whose controlling
/// terminal is the follower, so resizes and a hangup reach it as they would over sshd
/// or a browser's terminal. Forked from the server's zygote when it has one, else
/// started from nothing.
public final class SessionProcess: Sendable {
    public let pid: pid_t
    /// The server's side of the terminal; kept for resizing (the byte pump owns a copy).
    public let leader: Int32
    /// A forked session's exit: its wait status is written here by the zygote (-1: the
    /// server had no descriptor free to take the pipe, and watches the session instead).
    private let exits: Int32?

    public init(
        executable: String, arguments: [String], environment: [String: String], rows: Int, columns: Int,
        zygote: SessionZygote? = nil
    ) throws {
        var leader: Int32 = -1
        var path = [CChar](repeating: 0, count: 128)
        guard onboard_pty_open(&leader, &path, Int32(path.count), Int32(rows), Int32(columns)) == 0 else {
            throw SessionError("no pseudo-terminal is free (\(String(cString: strerror(errno))))")
        }
        if let zygote, let forked = Self.fork(from: zygote, arguments: arguments, environment: environment, follower: path) {
            (pid, exits) = (forked.pid, forked.exits)
            self.leader = leader
            return
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let failure = onboard_pty_spawn(executable, argv, envp, path, leader, &pid)
        guard failure == 0 else {
            close(leader)
            throw SessionError("cannot start \(executable) (\(String(cString: strerror(failure))))")
        }
        self.pid = pid
        self.leader = leader
        exits = nil
    }

    private static func fork(
        from zygote: SessionZygote, arguments: [String], environment: [String: String], follower path: [CChar]
    ) -> (pid: pid_t, exits: Int32)? {
        let follower = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard follower >= 0 else { return nil }
        defer { close(follower) }
        return zygote.start(arguments: arguments, environment: environment, follower: follower)
    }

    public func resize(rows: Int, columns: Int) {
        _ = onboard_pty_resize(leader, Int32(rows), Int32(columns))
    }

    /// The client left: the program is hung up, as sshd would, and saves and exits.
    public func hangUp() {
        kill(-pid, SIGHUP)
    }

    public func forceQuit() {
        kill(-pid, SIGKILL)
    }

    /// Blocks until the program exits; returns its exit status for the client (128 + N
    /// for a signal, as shells report it). Always reaps it.
    public func waitForExit() -> Int {
        defer { close(leader) }
        guard let exits else {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return Self.exitStatus(status)
        }
        defer { if exits >= 0 { close(exits) } }
        var status: Int32 = 0
        let read = withUnsafeMutableBytes(of: &status) { bytes in
            var read = 0
            repeat { read = Glibc.read(exits, bytes.baseAddress, bytes.count) } while read < 0 && errno == EINTR
            return read
        }
        if read == MemoryLayout<Int32>.size { return Self.exitStatus(status) }
        // The zygote went first (killed), or no pipe came: the session is not this
        // process's child to wait for, so it is watched until it has gone, and said hung up.
        while !hasGone { usleep(50_000) }
        return 128 + Int(SIGHUP)
    }

    /// Gone, or ended and not yet reaped by whoever inherited it.
    private var hasGone: Bool {
        guard kill(pid, 0) == 0 else { return errno == ESRCH }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    private static func exitStatus(_ status: Int32) -> Int {
        let signal = status & 0x7F
        return signal == 0 ? Int((status >> 8) & 0xFF) : 128 + Int(signal)
    }
}

public struct SessionError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
