#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OwnThread
import PtyShim

extension SessionZygote {
    /// Runs this process as the zygote, on the socket that is its standard input: `warmUp`
    /// first (the work every session would repeat), then a session forked for each
    /// request, in which `become` runs its command line and the session exits (0 when it
    /// returns). Exits when the server has gone; the sessions run on.
    public static func serve(warmUp: () -> Void, become: @escaping @Sendable ([String]) -> Void) -> Never {
        var input = stat()
        guard fstat(0, &input) == 0, input.st_mode & S_IFMT == S_IFSOCK else {
            let message = "onboard: \(flag) is started by a demo server (serve-ssh, serve-web), on its socket\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            exit(64)  // EX_USAGE
        }
        // Its own process group: a Ctrl-C at the server's terminal is the server's to
        // handle (it hangs the sessions up); the zygote ends when the server has gone.
        setpgid(0, 0)
        // A server gone before it read a session's exit is no reason to end.
        signal(SIGPIPE, SIG_IGN)
        warmUp()
        // Only a process with one thread forks whole: the server starts its sessions
        // itself when this one is not (EX_TEMPFAIL).
        guard onboard_thread_count() == 1 else { exit(75) }
        let requests: Int32 = 0
        let ended = onboard_zygote_signals()
        guard ended >= 0 else { exit(71) }
        var exitPipes: [pid_t: Int32] = [:]
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        while true {
            let ready = onboard_zygote_wait(requests, ended)
            guard ready >= 0 else { exit(71) }
            if ready & 2 != 0 { reap(into: &exitPipes) }
            guard ready & 1 != 0 else { continue }
            var follower: Int32 = -1
            let length = onboard_zygote_receive(requests, &buffer, buffer.count, &follower)
            guard length != 0 else { exit(0) }
            // A request too large is refused below; any other failure is the socket's.
            if length < 0, errno != EMSGSIZE { exit(74) }  // EX_IOERR
            defer { if follower >= 0 { close(follower) } }
            let request = buffer.withUnsafeBytes { bytes in
                length > 0 ? ZygoteRequest(decoding: bytes.prefix(length)) : nil
            }
            guard let request, follower >= 0 else {
                _ = onboard_zygote_answer(requests, -EINVAL, -1)
                continue
            }
            var pipe: [Int32] = [-1, -1]
            // A session closes every descriptor of the zygote's, so none needs close-on-exec.
            guard Glibc.pipe(&pipe) == 0 else {
                _ = onboard_zygote_answer(requests, -errno, -1)
                continue
            }
            let pid = onboard_zygote_fork(follower)
            if pid == 0 { becomeSession(request, become) }
            let failure = errno
            if pid > 0 { exitPipes[pid] = pipe[1] } else { close(pipe[1]) }
            _ = onboard_zygote_answer(requests, pid > 0 ? pid : -failure, pid > 0 ? pipe[0] : -1)
            close(pipe[0])
        }
    }

    /// In the forked session: its own environment, then its command line, on a thread of
    /// its own. The runtime's locks know a thread by an id each thread caches, and this
    /// thread's is the zygote's (fork copies it): a lock this thread held while another
    /// waited would be waited on for ever (a forked session spun at exit, found by the
    /// suite). This thread then only waits, every signal left to the session's.
    private static func becomeSession(_ request: ZygoteRequest, _ become: @escaping @Sendable ([String]) -> Void) -> Never {
        clearenv()
        for (name, value) in request.environment { setenv(name, value, 1) }
        let arguments = request.arguments
        // `ps` shows the session's command line, not the zygote's (which a `pkill -f` of
        // the zygote would match); the old environment's strings are free to hold it.
        let shown = Array(arguments.joined(separator: "\0").utf8)
        shown.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { onboard_show_command_line($0.baseAddress, $0.count) }
        }
        guard
            OwnThread.detach({
                become(arguments)
                exit(0)
            })
        else { exit(71) }  // EX_OSERR: no thread to be had
        var every = sigset_t()
        sigfillset(&every)
        pthread_sigmask(SIG_SETMASK, &every, nil)
        while true { pause() }
    }

    /// Every session that ended: its wait status written to the server, its pipe closed.
    private static func reap(into exitPipes: inout [pid_t: Int32]) {
        var status: Int32 = 0
        while case let pid = onboard_zygote_reap(&status), pid > 0 {
            guard let pipe = exitPipes.removeValue(forKey: pid) else { continue }
            _ = withUnsafeBytes(of: status) { write(pipe, $0.baseAddress, $0.count) }
            close(pipe)
        }
    }
}
