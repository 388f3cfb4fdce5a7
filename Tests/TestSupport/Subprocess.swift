import Foundation

/// Runs programs for the tests with posix_spawn: Foundation's Process waits on a run loop
/// a test thread does not run, and hangs when a child (tmux, pg_ctl) leaves a daemon.
public enum Subprocess {
    /// Runs a command to its end; returns its exit status (128+N for signal N) and output.
    /// `input`, when given, is the command's standard input (a file, not a terminal).
    public static func run(_ executable: String, _ arguments: [String], input: String? = nil) -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-test-out-\(UUID().uuidString)").path
        let inputPath = outputPath + ".in"
        defer { unlink(outputPath); unlink(inputPath) }
        _ = FileManager.default.createFile(atPath: inputPath, contents: Data((input ?? "").utf8))
        guard let pid = spawn(executable, arguments, input: input == nil ? "/dev/null" : inputPath, output: outputPath) else {
            return (-1, "cannot run \(executable)")
        }
        let status = wait(for: pid)
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return (status, String(decoding: data, as: UTF8.self))
    }

    /// `run` for an async test: the wait happens on a thread of its own (see `offThePool`).
    public static func run(_ executable: String, _ arguments: [String], input: String? = nil) async -> (status: Int32, output: String) {
        await offThePool { run(executable, arguments, input: input) }
    }

    /// Starts a command with stdout and stderr to `output` and no signals blocked (the test
    /// runner blocks some, and children inherit the mask).
    public static func spawn(_ executable: String, _ arguments: [String], input: String = "/dev/null", output: String) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        // The test runner sets NO_COLOR; onboard should run as in a person's terminal.
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "TMUX" && $0.key != "NO_COLOR" }.map {
            "\($0.key)=\($0.value)"
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, &attributes, argv, envp) == 0 else { return nil }
        return pid
    }

    /// Waits for a child to end: its exit status, or 128+N when signal N ended it.
    @discardableResult
    public static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// Blocking work for an async test (a child's `waitpid`, `initdb`, a lazy global that
/// starts a server) on a thread of its own. Run on the cooperative pool — two threads on a
/// 2-core machine, one of them held by the serialised end-to-end suite — it stalls every
/// test beside it, whose database pools and deadlines run there: CI once saw every
/// in-process PostgreSQL case give up on a pool that could not get a thread for 20 s.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

public func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}
