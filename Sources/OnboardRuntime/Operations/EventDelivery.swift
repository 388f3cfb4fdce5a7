import Foundation
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
    public let flushAt: Int
    public let flushInterval: Duration
    /// The flow's service now (Baby Basics' chosen server): where the next batch goes.
    private let address = Mutex<String?>(nil)
    /// The session's access token while there is one, so a withdrawal also deletes the
    /// account's events; kept in memory only.
    private let bearer = Mutex<String?>(nil)
    private let due = Atomic<Bool>(false)
    private let loop = Mutex<Task<Void, Never>?>(nil)
    /// Seconds to wait before trying again, and when.
    private let backoff = Mutex<(seconds: Int64, until: ContinuousClock.Instant?)>((0, nil))

    public init(queue: EventQueue, services: ServiceDirectory, flushAt: Int = 20, flushInterval: Duration = .seconds(10)) {
        self.queue = queue
        self.services = services
        self.flushAt = flushAt
        self.flushInterval = flushInterval
    }

    /// Starts the background loop: what an earlier run left is sent first.
    public func start() {
        loop.withLock { task in
            guard task == nil else { return }
            due.store(true, ordering: .relaxed)
            task = Task.detached { [self] in await run() }
        }
    }

    /// Queues one event (on the caller's thread: a small append) and wakes the loop when a
    /// batch is full.
    public func enqueue(_ event: AnalyticsEvent, address: String?, bearer: String?) throws {
        self.address.withLock { $0 = address }
        self.bearer.withLock { $0 = bearer }
        try queue.append(event)
        if queue.count >= flushAt { due.store(true, ordering: .relaxed) }
    }

    /// Consent withdrawn: the queue goes now; the service is asked by the loop.
    public func withdraw(anonymousID: String, address: String?, bearer: String?) throws {
        self.address.withLock { $0 = address }
        self.bearer.withLock { $0 = bearer }
        try queue.forget(anonymousID: anonymousID)
        due.store(true, ordering: .relaxed)
    }

    /// A clean exit: the loop stops, and what waits is sent once more, for at most
    /// `limit`; what is left stays queued for the next run.
    public func finish(within limit: Duration) {
        loop.withLock { task in
            task?.cancel()
            task = nil
        }
        guard limit > .zero else { return }
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

    /// Withdrawals first, then batches until the queue is empty or the service fails.
    /// Returns whether everything went.
    public func deliverAll() async -> Bool {
        guard let service = try? services.service(for: address.withLock { $0 }) else { return false }
        for anonymousID in queue.pendingWithdrawals() {
            guard await attempt({ try await self.forget(anonymousID, on: service) }) else { return false }
        }
        while !Task.isCancelled {
            let batch = queue.oldest(Wire.EventsRequest.maximumEvents)
            guard !batch.isEmpty else { return true }
            let sent = await attempt {
                do {
                    _ = try await service.recordEvents(batch)
                } catch let error as ServiceError where error.code == .invalidInput {
                    // A batch the service will never take would block the queue forever.
                    _ = error
                }
                try self.queue.remove(ids: Set(batch.map(\.id)))
            }
            guard sent else { return false }
        }
        return false
    }

    private func forget(_ anonymousID: String, on service: any AuthService) async throws {
        do {
            _ = try await service.forgetEvents(anonymousID: anonymousID, accessToken: bearer.withLock { $0 })
        } catch let error as ServiceError where error.code == .unauthorized {
            // A session that ended: the run's own events still go.
            _ = try await service.forgetEvents(anonymousID: anonymousID, accessToken: nil)
        }
        try queue.withdrawalDelivered(anonymousID)
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
