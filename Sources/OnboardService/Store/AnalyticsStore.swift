/// Analytics events as devices sent them, and the funnel read from them.
public protocol AnalyticsStore: Sendable {
    /// Keeps each event whose id is new (one statement decides, so a batch sent twice at
    /// once is kept once), after deleting events received before the retention; how many
    /// were new.
    func storeEvents(_ events: [StoredEvent], deletingReceivedBefore cutoff: Int64) async throws -> Int
    /// Deletes a device run's events, and an account's when `userID` is given.
    func deleteEvents(anonymousID: String, userID: String?) async throws -> Int
    /// A flow's events from `since` (milliseconds, the devices' clocks): the funnel's reading.
    func funnelRows(flow: String, since: Int64) async throws -> [FunnelRow]
}
