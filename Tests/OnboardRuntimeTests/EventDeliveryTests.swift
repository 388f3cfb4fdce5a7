import EmbeddedMock
import FlowEngine
import Foundation
import Installation
@testable import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient
import Testing

/// Issue 35: the disk queue and its delivery. Every event recorded reaches the service
/// once; nothing is lost to a bound without saying so, to a second process on the same
/// folder, or to a service that is away.
@Suite struct EventDeliveryTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-events-\(UUID().uuidString)").path
    let service = try! OnboardService(database: try! ServiceDatabase.inMemory())
    static let mock = ServiceDirectory.mockAddress

    func event(_ number: Int, person: String = "local-1") -> AnalyticsEvent {
        AnalyticsEvent(
            id: UUID().uuidString.lowercased(), event: "screen_viewed", flow: "oklah", screen: "privacy", userID: person,
            anonymousID: person,
            timestamp: "2026-11-26T05:00:00.\(String(format: "%03d", number % 1000))Z", appVersion: OnboardVersion.current,
            properties: ["screen_index": .number(0)])
    }

    func storedCount(_ flow: String = "oklah") async throws -> Int {
        try await service.funnel(flow: flow, since: 0, byVersion: false).steps.first?.reached ?? 0
    }

    /// Focuses the consent screen's button (it has no fields: its buttons are its Tab
    /// order) and activates it, as a person's Tab and Enter do.
    func press(_ label: String, on session: FlowSession) {
        let labels = session.view().buttons.map(\.label)
        guard let focus = labels.firstIndex(of: label) else {
            Issue.record("no '\(label)' among \(labels)")
            return
        }
        session.dispatch(.intent(.focus(focus)))
        session.dispatch(.intent(.activate))
    }

    @Test func theQueueKeepsTheNewestAndSaysHowManyWent() throws {
        let queue = EventQueue(folder: folder, limitBytes: 20_000)
        for number in 0..<200 { try queue.append(event(number), to: Self.mock) }
        let kept = queue.oldest(1000, for: Self.mock)
        let notes = kept.filter { $0.event == EventQueue.droppedEvent }
        #expect(notes.count == 1, "one note, the counts carried into it")
        let dropped = notes.first.flatMap { if case .number(let count)? = $0.properties["count"] { Int(count) } else { nil } }
        #expect(dropped.map { $0 + kept.count - 1 } == 200, "every event is kept or counted")
        #expect(kept.last?.event == EventQueue.droppedEvent || kept.contains { $0.timestamp.hasSuffix(".199Z") })
        let size = try FileManager.default.attributesOfItem(atPath: queue.path)[.size] as? Int ?? 0
        #expect(size <= 20_000)
    }

    /// Two processes on one folder (two terminals): one removes what it delivered while
    /// the other appends; nothing of the other's is lost.
    @Test func twoWritersOnOneFolderLoseNothing() async throws {
        let first = EventQueue(folder: folder)
        let second = EventQueue(folder: folder)
        let early = (0..<50).map { event($0) }
        for item in early { try first.append(item, to: Self.mock) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for number in 50..<150 { try? second.append(self.event(number), to: Self.mock) } }
            group.addTask { for item in early { try? first.remove(ids: [item.id]) } }
        }
        #expect(first.oldest(1000, for: Self.mock).count == 100)
    }

    @Test func everyEventIsDeliveredOnceAndTheQueueEmpties() async throws {
        let queue = EventQueue(folder: folder)
        for number in 0..<245 { try queue.append(event(number, person: "local-\(number)"), to: Self.mock) }
        let delivery = EventDelivery(queue: queue, services: ServiceDirectory(fixed: InProcessTransport(service: service)))
        #expect(await delivery.deliverAll())
        #expect(queue.isEmpty)
        #expect(try await storedCount() == 245)
        // A kill after the service kept a batch and before the queue lost it: the next
        // run sends it again, and the service keeps it once.
        let again = EventQueue(folder: folder + "-again")
        for number in 0..<10 { try again.append(event(number, person: "local-again-\(number)"), to: Self.mock) }
        let twice = again.oldest(10, for: Self.mock)
        let resend = EventDelivery(queue: again, services: ServiceDirectory(fixed: InProcessTransport(service: service)))
        #expect(await resend.deliverAll())
        for item in twice { try again.append(item, to: Self.mock) }
        #expect(await resend.deliverAll())
        #expect(try await storedCount() == 255)
    }

    /// A service that is away: the events stay queued and go when it answers.
    @Test func aServiceThatIsAwayKeepsTheQueue() async throws {
        let queue = EventQueue(folder: folder)
        for number in 0..<30 { try queue.append(event(number, person: "local-\(number)"), to: Self.mock) }
        let closed = try HTTPTransport(base: "http://127.0.0.1:9", timeout: .seconds(2))
        let away = EventDelivery(queue: queue, services: ServiceDirectory(fixed: closed))
        #expect(await away.deliverAll() == false)
        #expect(queue.oldest(100, for: Self.mock).count == 30)
        let back = EventDelivery(queue: queue, services: ServiceDirectory(fixed: InProcessTransport(service: service)))
        #expect(await back.deliverAll())
        #expect(try await storedCount() == 30)
    }

    /// Two terminals on one state folder, one on the embedded mock and one on a server (or
    /// Baby Basics' server changed): each event goes to the service it was recorded for,
    /// and one that is away holds up no other.
    @Test func eachEventGoesToItsOwnService() async throws {
        let queue = EventQueue(folder: folder)
        let server = "http://127.0.0.1:9"
        for number in 0..<5 { try queue.append(event(number, person: "local-mock-\(number)"), to: Self.mock) }
        for number in 0..<3 { try queue.append(event(number, person: "local-server-\(number)"), to: server) }
        let delivery = EventDelivery(queue: queue, services: ServiceDirectory(fixed: InProcessTransport(service: service)))
        #expect(await delivery.deliverAll() == false, "the server is away")
        #expect(try await storedCount() == 5, "the mock got its own five, none of the server's")
        #expect(queue.oldest(10, for: server).count == 3)
        #expect(queue.services() == [server])
    }

    /// ABBY's "Continue Without Analytics" after an earlier Agree: the queue goes, the
    /// local log goes, and the service forgets what it had of the run.
    @Test func withdrawingConsentForgetsOnDiskAndAtTheService() async throws {
        let flow = try BuiltinFlows.load("abby")
        let store = StateStore(stateDirectory: folder, flowID: "abby")
        let transport = InProcessTransport(service: service)
        let delivery = EventDelivery(queue: EventQueue(folder: store.folder), services: ServiceDirectory(fixed: transport))
        let session = FlowSession(
            engine: FlowEngine(flow: flow), store: store, operations: OperationRunner(service: transport, flowID: "abby"),
            clock: RuntimeClock(), mailbox: Mailbox(), delivery: delivery)
        session.launch()
        press("Agree and Continue", on: session)
        #expect(await delivery.deliverAll())
        #expect(try await storedCount("abby") == 1)
        #expect(!store.analytics.events().isEmpty)
        session.dispatch(.intent(.back))
        press("Continue Without Analytics", on: session)
        #expect(store.analytics.events().isEmpty)
        #expect(delivery.queue.isEmpty)
        #expect(delivery.queue.pendingWithdrawals() == [EventQueue.Withdrawal(to: Self.mock, anonymousID: session.state.placeholderUserID)])
        #expect(await delivery.deliverAll())
        #expect(delivery.queue.pendingWithdrawals().isEmpty)
        #expect(try await storedCount("abby") == 0)
    }

    /// Issue 45: agreed to analytics (events reached the service), then, with
    /// `DO_NOT_TRACK` set, "Continue Without Analytics": the service was never asked to
    /// forget, and a later run without it did not ask either. Not sending events must never
    /// stop a deletion the person asked for.
    @Test func aWithdrawalUnderDoNotTrackStillReachesTheService() async throws {
        let flow = try BuiltinFlows.load("abby")
        let store = StateStore(stateDirectory: folder, flowID: "abby")
        let transport = InProcessTransport(service: service)
        let tracked = EventDelivery(queue: EventQueue(folder: store.folder), services: ServiceDirectory(fixed: transport))
        let first = FlowSession(
            engine: FlowEngine(flow: flow), store: store, operations: OperationRunner(service: transport, flowID: "abby"),
            clock: RuntimeClock(), mailbox: Mailbox(), delivery: tracked)
        first.launch()
        press("Agree and Continue", on: first)
        #expect(await tracked.deliverAll())
        #expect(try await storedCount("abby") == 1)

        // The next run, with DO_NOT_TRACK: nothing it records is queued or sent.
        let untracked = EventDelivery(
            queue: EventQueue(folder: store.folder), services: ServiceDirectory(fixed: transport), sendsEvents: false)
        let second = FlowSession(
            engine: FlowEngine(flow: flow), store: store, operations: OperationRunner(service: transport, flowID: "abby"),
            clock: RuntimeClock(), mailbox: Mailbox(), delivery: untracked)
        second.launch()
        second.dispatch(.intent(.back))
        press("Continue Without Analytics", on: second)
        #expect(await untracked.deliverAll())
        #expect(untracked.queue.pendingWithdrawals().isEmpty)
        #expect(try await storedCount("abby") == 0, "the service forgot the run's events")
    }

    /// Under `DO_NOT_TRACK` the events an earlier run left wait, unread: the run neither
    /// wakes for them nor reads the queue at its exit (a relaunch's thread and a tenth of
    /// its CPU, `benchmarks/README.md`), and a later run that sends delivers them.
    @Test func anEarlierRunsEventsWaitUnreadUnderDoNotTrack() async throws {
        let transport = InProcessTransport(service: service)
        let earlier = EventQueue(folder: folder)
        for number in 0..<3 { try earlier.append(event(number, person: "local-\(number)"), to: Self.mock) }

        let untracked = EventDelivery(queue: EventQueue(folder: folder), services: ServiceDirectory(fixed: transport), sendsEvents: false)
        untracked.start()
        #expect(!untracked.isRunning, "no loop wakes for events it will not send")
        #expect(await untracked.deliverAll())
        #expect(try await storedCount() == 0)

        let tracked = EventDelivery(queue: EventQueue(folder: folder), services: ServiceDirectory(fixed: transport))
        tracked.start()
        #expect(tracked.isRunning)
        tracked.finish(within: .seconds(30))
        #expect(try await storedCount() == 3)
    }
}
