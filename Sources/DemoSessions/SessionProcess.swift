import Foundation
import PtyShim

/// One session's `onboard` on its own pseudo-terminal: a new session whose controlling
/// terminal is the follower, so resizes and a hangup reach it as they would over sshd
/// or a browser's terminal.
public final class SessionProcess: Sendable {
    public let pid: pid_t
    /// The server's side of the terminal; kept for resizing (the byte pump owns a copy).
    public let leader: Int32

    public init(executable: String, arguments: [String], environment: [String: String], rows: Int, columns: Int) throws {
        var leader: Int32 = -1
        var path = [CChar](repeating: 0, count: 128)
        guard onboard_pty_open(&leader, &path, Int32(path.count), Int32(rows), Int32(columns)) == 0 else {
            throw SessionError("no pseudo-terminal is free (\(String(cString: strerror(errno))))")
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
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        close(leader)
        let signal = status & 0x7F
        return signal == 0 ? Int((status >> 8) & 0xFF) : 128 + Int(signal)
    }
}

public struct SessionError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
