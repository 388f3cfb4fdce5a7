import Foundation
import OnboardService
import ServiceAPI
import Testing

/// `AnalyticsStore`'s promises, held on every backend.
@Suite("AnalyticsStore conformance")
struct AnalyticsStoreConformance {
    func event(_ number: Int, person: String, receivedAt: Int64 = 1_000) throws -> StoredEvent {
        let id = String(format: "00000000-0000-4000-8000-%012d", number)
        let sent = AnalyticsEvent(
            id: id, event: "screen_viewed", flow: "oklah", screen: "welcome", userID: "u-\(person)", anonymousID: "a-\(person)",
            timestamp: "2026-11-28T10:00:0\(number).000Z", appVersion: "1.0.0", properties: ["screen_index": .number(Double(number))])
        return try StoredEvent(checking: sent, receivedAt: receivedAt, position: 0)
    }

    @Test(arguments: Backend.allCases)
    func anEventIsKeptOnceReadByTheFunnelAndDeletedWithItsPerson(backend: Backend) async throws {
        let store = try await backend.store()
        let events = try [event(1, person: "ann"), event(2, person: "ann"), event(3, person: "bob")]
        #expect(try await store.storeEvents(Array(events.prefix(2)), deletingReceivedBefore: 0) == 2)
        #expect(try await store.storeEvents(events, deletingReceivedBefore: 0) == 1)
        let rows = try await store.funnelRows(flow: "oklah", since: 0)
        #expect(rows.map(\.screenIndex).sorted { ($0 ?? 0) < ($1 ?? 0) } == [1, 2, 3])
        #expect(try await store.funnelRows(flow: "miga", since: 0).isEmpty)
        #expect(try await store.deleteEvents(anonymousID: "a-ann", userID: nil) == 2)
        #expect(try await store.funnelRows(flow: "oklah", since: 0).count == 1)
    }

    @Test(arguments: Backend.allCases)
    func eventsPastTheRetentionGoAsNewOnesCome(backend: Backend) async throws {
        let store = try await backend.store()
        #expect(try await store.storeEvents([try event(1, person: "ann", receivedAt: 100)], deletingReceivedBefore: 0) == 1)
        #expect(try await store.storeEvents([try event(2, person: "bob", receivedAt: 1_000)], deletingReceivedBefore: 500) == 1)
        #expect(try await store.funnelRows(flow: "oklah", since: 0).map(\.screenIndex) == [2])
    }
}
