import FoundationEssentials
import LineChannel
import OwnThread
import PtyShim
import ServiceAPI
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The embedded mock in a process of its own (`onboard-mock`), started on the first call
/// and spoken to over a socket pair (`MockHelperFrame`): the client maps no database
/// library. A helper that stops is started again on the next call; the calls it was
/// answering fail as a dropped connection does, and their idempotency keys make a retry safe.
public actor MockHelperTransport: AuthService {
    public struct Setup: Sendable {
        /// The `onboard-mock` executable.
        public var executable: String
        /// The mock's SQLite file.
        public var database: String
        /// The key its personal columns are sealed with; nil for a shared file.
        public var sealingKey: @Sendable () throws -> [UInt8]?
        /// The client's clock offset at each call: the mock's clock moves with it.
        public var clockOffset: @Sendable () -> Int64
        /// Told what opening the file found (a damaged file set aside, a lost key's).
        public var opened: @Sendable (MockHelperFrame.Opened) -> Void

        public init(
            executable: String, database: String, sealingKey: @escaping @Sendable () throws -> [UInt8]?,
            clockOffset: @escaping @Sendable () -> Int64, opened: @escaping @Sendable (MockHelperFrame.Opened) -> Void = { _ in }
        ) {
            (self.executable, self.database, self.sealingKey, self.clockOffset, self.opened) =
                (executable, database, sealingKey, clockOffset, opened)
        }
    }

    /// How the helper is named in a failure a person reads.
    static let name = "the embedded mock"
    /// The reply of a call its helper stopped before answering.
    static let broken = MockHelperFrame.Reply(id: -1, failure: .unreachable(name, reason: "it stopped"))
    private let setup: Setup
    private var helper: Task<Helper, any Error>?
    /// The helper running now, once started.
    private var current: Helper?
    /// Helpers that have stopped: a call that got one just before is failed, not left waiting.
    private var ended: Set<pid_t> = []
    private var waiting: [Int: CheckedContinuation<MockHelperFrame.Reply, Never>] = [:]
    /// Who waits for the helper to have exited (`finish`).
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []
    /// How long a helper that was let go may take to answer what it was asked and exit.
    static let exitDeadline = Duration.seconds(5)
    private var nextID = 0
    /// Whether a helper was ever asked for: one that never was has nothing to finish.
    private let asked = Atomic<Bool>(false)

    private struct Helper: Sendable {
        let pid: pid_t
        let channel: LineChannel
        /// Its replies, after the opening's.
        let replies: AsyncStream<Data>
    }

    public init(_ setup: Setup) {
        self.setup = setup
    }

    /// Starts the helper now, if none runs: its opening's notes before the first screen.
    public func start() async throws {
        _ = try await running()
    }

    /// Whether a helper was ever started (or is starting): a run whose flow never called
    /// the mock lets it go without a thread to wait on.
    public nonisolated var wasStarted: Bool { asked.load(ordering: .relaxed) }

    /// Lets the helper go and waits until it has exited: it answers what it was asked,
    /// closes its file and ends, so the file is the next process's (and a demo session's
    /// folder can go) once this returns.
    public func finish() async {
        guard let current else { return }
        shutdown(current.channel.descriptor, Int32(SHUT_WR))
        await withCheckedContinuation { exitWaiters.append($0) }
    }

    /// What the mock has sent (the QA console's SMS codes and emails).
    public func outbox() async throws -> [OutboxEntry] {
        try await send(Wire.OutboxCall(), bearer: nil)
    }

    /// `onboard funnel` on the mock's file.
    public func funnel(flow: String, since: Int64, byVersion: Bool) async throws -> FunnelReport {
        try await send(MockHelperFrame.FunnelQuery(flow: flow, since: since, byVersion: byVersion), bearer: nil)
    }

    /// The helper's process while one runs (QA and tests stop it to see a restart).
    public var processID: pid_t? { current?.pid }

    public func send<Call: WireCall>(_ call: Call, bearer: String?) async throws -> Call.Answer {
        let helper = try await running()
        nextID += 1
        let request = MockHelperFrame.Request(
            id: nextID, endpoint: Call.endpoint.documented, body: String(decoding: try JSONEncoder().encode(call), as: UTF8.self),
            parameter: call.pathParameter, bearer: bearer, idempotencyKey: CallContext.idempotencyKey,
            idempotencyProof: CallContext.idempotencyProof, deviceToken: CallContext.deviceToken, clockOffsetSeconds: setup.clockOffset())
        let reply = await withCheckedContinuation { continuation in
            // A helper that stopped after `running()` answered has no one to pair the
            // reply with: the call fails at once, as a dropped connection, not never.
            guard !ended.contains(helper.pid) else { return continuation.resume(returning: Self.broken) }
            waiting[request.id] = continuation
            if !helper.channel.write(request) { stopped(helper) }
        }
        if let failure = reply.failure { throw failure }
        guard let answer = reply.answer.flatMap({ try? JSONDecoder().decode(Call.Answer.self, from: Data($0.utf8)) }) else {
            throw ServiceError.unreadable(Self.name, status: 200)
        }
        return answer
    }

    /// The helper, started now if none runs; calls that come while it starts wait for it.
    private func running() async throws -> Helper {
        if let helper { return try await helper.value }
        asked.store(true, ordering: .relaxed)
        let setup = setup
        let starting = Task { try await Self.start(setup) }
        helper = starting
        do {
            let started = try await starting.value
            current = started
            Task { await self.listen(to: started) }
            return started
        } catch {
            helper = nil
            throw error
        }
    }

    private static func start(_ setup: Setup) async throws -> Helper {
        let key = try setup.sealingKey()
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw ServiceError(.serverError, "The embedded mock could not be started (\(String(cString: strerror(errno)))).")
        }
        defer { close(pair[1]) }
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(setup.executable), nil]
        defer { arguments.forEach { free($0) } }
        let spawned = onboard_spawn_helper(setup.executable, arguments, environ, pair[1], &pid)
        guard spawned == 0 else {
            close(pair[0])
            throw ServiceError(
                .serverError,
                "The embedded mock (\(setup.executable)) could not be started (\(String(cString: strerror(spawned)))); it is built with onboard (swift build) and must sit beside it."
            )
        }
        let channel = LineChannel(descriptor: pair[0])
        let opening = MockHelperFrame.Opening(path: setup.database, sealingKey: key.map { Data($0).base64EncodedString() })
        let replies = channel.lines()
        var lines = replies.makeAsyncIterator()
        guard channel.write(opening), let first = await lines.next(),
            let opened = try? JSONDecoder().decode(MockHelperFrame.Opened.self, from: first)
        else {
            close(pair[0])
            waitpid(pid, nil, 0)
            throw ServiceError.unreachable(name, reason: "it stopped as it started")
        }
        if let failure = opened.failure {
            close(pair[0])
            waitpid(pid, nil, 0)
            throw failure
        }
        setup.opened(opened)
        return Helper(pid: pid, channel: channel, replies: replies)
    }

    /// Waits for the helper's exit; one that outlives the deadline is killed.
    private static func reap(_ pid: pid_t) {
        let deadline = ContinuousClock.now + exitDeadline
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return
            }
            usleep(2_000)
        }
    }

    /// Each reply to the call waiting for it, until the helper stops.
    private func listen(to helper: Helper) async {
        for await line in helper.replies {
            guard let reply = try? JSONDecoder().decode(MockHelperFrame.Reply.self, from: line) else { continue }
            waiting.removeValue(forKey: reply.id)?.resume(returning: reply)
        }
        stopped(helper)
    }

    /// The helper is gone (or its socket broke): the calls it had fail as a dropped
    /// connection's do, and the next call starts another.
    private func stopped(_ stopped: Helper) {
        guard current?.pid == stopped.pid else { return }
        (helper, current) = (nil, nil)
        ended.insert(stopped.pid)
        // Shut down first: a close alone does not wake the thread reading it.
        shutdown(stopped.channel.descriptor, Int32(SHUT_RDWR))
        let exited = exitWaiters
        exitWaiters = []
        let reaping = OwnThread.detach {
            Self.reap(stopped.pid)
            close(stopped.channel.descriptor)
            for waiter in exited { waiter.resume() }
        }
        if !reaping {
            // No thread to wait on: let it go unreaped (it ends on its socket's close) rather
            // than block here.
            close(stopped.channel.descriptor)
            for waiter in exited { waiter.resume() }
        }
        for (_, call) in waiting { call.resume(returning: Self.broken) }
        waiting = [:]
    }
}
