import Dispatch
import FoundationEssentials
import ServiceAPI
import Synchronization

/// Delivers queued analytics to the service off the UI thread, as Segment's libraries do:
/// a batch when `flushAt` events wait or every `flushInterval`, one last try at a clean
/// exit (bounded), backoff while the service is away. A batch leaves the queue only once
/// the service has said it kept it, so a kill anywhere sends it again, and the service's
/// dedupe by event id keeps it once.
public final class EventDelivery: Sendable {
    public let queue: EventQueue
    private let services: ServiceDirectory
    /// The run's own service (`--service`): where a flow without a server URL sends.
    private let defaultService: String
    public let flushAt: Int
    public let flushInterval: Duration
    /// false under `DO_NOT_TRACK`: no event is queued or sent, but a withdrawal the person
    /// asks for still goes. Not sending must never stop a deletion.
    public let sendsEvents: Bool
    /// The session's access token and the service it is for, so a withdrawal also
    /// deletes the account's events there; kept in memory only.
    private let bearer = Mutex<(service: String, token: String)?>(nil)
    /// Events queued by this process since its last delivery: a full batch wakes the loop
    /// without reading the queue on the UI thread.
    private let queuedSinceDelivery = Atomic<Int>(0)
    private let due = Atomic<Bool>(false)
    /// The background loop, once `start()` was called and something waits to be sent.
    private let loop = Mutex<(started: Bool, task: Task<Void, Never>?)>((false, nil))
    /// Seconds to wait before trying again, and when.
    private let backoff = Mutex<(seconds: Int64, until: ContinuousClock.Instant?)>((0, nil))

    public init(
        queue: EventQueue, services: ServiceDirectory, defaultService: String = ServiceDirectory.mockAddress, flushAt: Int = 20,
        flushInterval: Duration = .seconds(10), sendsEvents: Bool = true
    ) {
        self.sendsEvents = sendsEvents
        self.queue = queue
        self.services = services
        self.defaultService = defaultService
        self.flushAt = flushAt
        self.flushInterval = flushInterval
    }

    /// Delivery may begin (the session calls this once its first screen is drawn). The
    /// loop runs only once something waits: events an earlier run left go at the first
    /// flush, a withdrawal at once (not sending never stops a deletion), and a run that
    /// queues nothing never wakes for it.
    public func start() {
        loop.withLock { $0.started = true }
        let withdrawals = queue.holdsWithdrawals
        if withdrawals { due.store(true, ordering: .relaxed) }
        if withdrawals || mayHaveEventsToSend { runLoop() }
    }

    /// Whether events may wait that this run sends. Under DO_NOT_TRACK an earlier run's
    /// events stay queued, unread, for a run that sends.
    private var mayHaveEventsToSend: Bool { sendsEvents && queue.mayHoldEvents }

    /// Whether the background loop is running.
    var isRunning: Bool { loop.withLock { $0.task != nil } }

    /// Starts the loop if delivery has begun and it is not running.
    private func runLoop() {
        loop.withLock { loop in
            guard loop.started, loop.task == nil else { return }
            loop.task = Task.detached { [self] in await run() }
        }
    }

    /// Queues one event for `service` (nil: the run's own), on the caller's thread: a
    /// small append. A full batch wakes the loop.
    public func enqueue(_ event: AnalyticsEvent, service: String?, bearer: String?) throws {
        guard sendsEvents else { return }
        let service = service ?? defaultService
        remember(bearer, for: service)
        try queue.append(event, to: service)
        if queuedSinceDelivery.add(1, ordering: .relaxed).newValue >= flushAt { due.store(true, ordering: .relaxed) }
        runLoop()
    }

    /// Consent withdrawn: the queue goes now; the service is asked by the loop.
    public func withdraw(anonymousID: String, service: String?, bearer: String?) throws {
        let service = service ?? defaultService
        remember(bearer, for: service)
        try queue.forget(EventQueue.Withdrawal(to: service, anonymousID: anonymousID))
        due.store(true, ordering: .relaxed)
        runLoop()
    }

    private func remember(_ token: String?, for service: String) {
        self.bearer.withLock { $0 = token.map { (service, $0) } }
    }

    /// A clean exit: the loop stops, and what waits is sent once more, for at most
    /// `limit`; what is left stays queued for the next run.
    public func finish(within limit: Duration) {
        loop.withLock { loop in
            loop.task?.cancel()
            loop = (false, nil)
        }
        // Nothing to send: no thread to start, no queue to read.
        guard limit > .zero, queue.holdsWithdrawals || mayHaveEventsToSend else { return }
        let done = DispatchSemaphore(value: 0)
        let attempt = Task.detached { [self] in
            _ = await deliverAll()
            done.signal()
        }
        if done.wait(timeout: .now() + .milliseconds(Int(limit.wholeMilliseconds))) == .timedOut { attempt.cancel() }
    }

    private func run() async {
        var waited: Duration = .zero
        let tick: Duration = .milliseconds(250)
        while !Task.isCancelled {
            let waiting = backoff.withLock { state in state.until.map { ContinuousClock.now < $0 } ?? false }
            if !waiting, due.exchange(false, ordering: .relaxed) || waited >= flushInterval {
                waited = .zero
                _ = await deliverAll()
            }
            try? await Task.sleep(for: tick)
            waited += tick
        }
    }

    /// Each service's withdrawals, then its batches, until its queue is empty or it fails;
    /// one service away holds up no other. Returns whether everything went.
    public func deliverAll() async -> Bool {
        queuedSinceDelivery.store(0, ordering: .relaxed)
        var unreachable: Set<String> = []
        for withdrawal in queue.pendingWithdrawals() where !unreachable.contains(withdrawal.to) {
            // Its events wait until the service has forgotten what it held: a person who
            // agrees again afterwards keeps what they send then.
            guard let service = try? services.service(for: withdrawal.to), await attempt({ try await self.forget(withdrawal, on: service) })
            else {
                unreachable.insert(withdrawal.to)
                continue
            }
        }
        for destination in sendsEvents ? queue.services() : [] where !unreachable.contains(destination) {
            guard let service = try? services.service(for: destination), await deliver(to: destination, on: service) else {
                unreachable.insert(destination)
                continue
            }
        }
        return unreachable.isEmpty
    }

    /// One service's events, a batch at a time; whether they all went.
    private func deliver(to destination: String, on service: any AuthService) async -> Bool {
        while !Task.isCancelled {
            let batch = queue.oldest(Wire.EventsRequest.maximumEvents, for: destination)
            guard !batch.isEmpty else { return true }
            let sent = await attempt {
                do {
                    _ = try await service.recordEvents(batch)
                } catch let error as ServiceError where error.code == .invalidInput {
                    // A batch the service will never take would hold up the queue for good.
                }
                try self.queue.remove(ids: Set(batch.map(\.id)))
            }
            guard sent else { return false }
        }
        return false
    }

    private func forget(_ withdrawal: EventQueue.Withdrawal, on service: any AuthService) async throws {
        let token = bearer.withLock { remembered in remembered.flatMap { $0.service == withdrawal.to ? $0.token : nil } }
        do {
            _ = try await service.forgetEvents(anonymousID: withdrawal.anonymousID, accessToken: token)
        } catch let error as ServiceError where error.code == .unauthorized && token != nil {
            // A session that ended: the run's own events still go.
            _ = try await service.forgetEvents(anonymousID: withdrawal.anonymousID, accessToken: nil)
        }
        try queue.withdrawalDelivered(withdrawal)
    }

    /// One try; a failure backs off (1 s doubling to 5 min, or the service's Retry-After).
    private func attempt(_ work: @Sendable () async throws -> Void) async -> Bool {
        do {
            try await work()
            backoff.withLock { $0 = (0, nil) }
            return true
        } catch {
            let retryAfter = (error as? ServiceError)?.retryAfter.map(Int64.init)
            backoff.withLock { state in
                let seconds = retryAfter ?? min(300, max(1, state.seconds * 2))
                state = (seconds, ContinuousClock.now + .seconds(seconds))
            }
            return false
        }
    }
}
