import CivilCalendar
import Foundation
import InputRules
import ServiceAPI

/// Analytics the clients deliver: each event checked (names and sizes; never a free-form
/// value), kept once by its id, kept for `settings.eventsRetention`, deleted when
/// consent is withdrawn, and read back as a funnel.
extension OnboardService {
    public func recordEvents(_ events: [AnalyticsEvent], client: String) async throws -> Wire.EventsStored {
        let now = clock.now()
        try await limit("events", address: client, settings.eventBatchesPerAddress, now: now)
        guard (1...Wire.EventsRequest.maximumEvents).contains(events.count) else {
            throw ServiceError(.invalidInput, "A batch holds 1 to \(Wire.EventsRequest.maximumEvents) events.")
        }
        let rows = try events.enumerated().map { position, event in try StoredEvent(checking: event, receivedAt: now, position: position) }
        // What one address, one run and everyone may add in an hour (ASVS 2.4.1): a flood
        // is refused before it is stored, and the store-wide ceiling says so in the
        // metrics and the log when it bites.
        try await limit("events-address", key: client, settings.eventsPerAddress, weight: rows.count, now: now, address: client)
        try await limit(
            "event-bytes-address", key: client, settings.eventBytesPerAddress, weight: rows.reduce(0) { $0 + $1.storedBytes }, now: now,
            address: client)
        for (run, count) in Dictionary(rows.map { ($0.anonymousID, 1) }, uniquingKeysWith: +).sorted(by: { $0.key < $1.key }) {
            try await limit("events-run", key: run, settings.eventsPerRun, weight: count, now: now)
        }
        try await limit("events-store", key: "all", settings.eventsStoreWide, weight: rows.count, now: now)
        let stored = try await store.storeEvents(rows, deletingReceivedBefore: now - settings.eventsRetention)
        return Wire.EventsStored(stored: stored, duplicates: events.count - stored)
    }

    /// The events of this device's run; with a session, the account's too. Knowing the
    /// placeholder (a random UUID that never leaves the device but in its own events) is
    /// what entitles a caller to it.
    public func forgetEvents(anonymousID: String, accessToken: String?, client: String = "local") async throws -> Wire.EventsForgotten {
        guard StoredEvent.isIdentifier(anonymousID) else {
            throw ServiceError(.invalidInput, "anonymous_id is not an identifier this service issues or accepts.")
        }
        try await limit("events-forget", address: client, settings.forgetsPerAddress, now: clock.now())
        var userID: String?
        if let accessToken { userID = try await authenticate(accessToken).userID }
        return Wire.EventsForgotten(deleted: try await store.deleteEvents(anonymousID: anonymousID, userID: userID))
    }

    /// The funnel of `flow` from `since` (milliseconds, by the devices' clocks).
    public func funnel(flow: String, since: Int64, byVersion: Bool) async throws -> FunnelReport {
        let rows = try await store.funnelRows(flow: flow, since: since)
        return Funnel.report(flow: flow, since: since, until: clock.now() * 1000, rows: rows, byVersion: byVersion)
    }
}

/// An event as the store keeps it: the funnel's columns drawn out, the rest as JSON.
public struct StoredEvent: Sendable, Equatable {
    public var id: String
    public var flow: String
    public var event: String
    public var screen: String?
    public var screenIndex: Int?
    public var userID: String
    public var anonymousID: String
    public var occurredAt: Int64
    public var receivedAt: Int64
    public var appVersion: String
    public var errorCode: String?
    public var attemptNumber: Int?
    public var durationMilliseconds: Int64?
    public var version: String?
    /// The first screen event of a client's run (`starts_run`).
    public var startsRun: Bool
    /// The properties as a JSON object.
    public var properties: String

    /// About what the row takes in the store: its properties, and its other columns.
    var storedBytes: Int {
        properties.utf8.count + id.utf8.count + flow.utf8.count + event.utf8.count + userID.utf8.count + anonymousID.utf8.count + 64
    }

    /// The property the funnel splits by: the remote config's flow version.
    public static let versionProperty = "onboarding_flow_version"
    static let maximumProperties = 16
    static let maximumText = 128

    /// Refuses, naming the event and what is wrong, anything but the names and small
    /// values the engine records.
    public init(checking event: AnalyticsEvent, receivedAt: Int64, position: Int) throws {
        func refuse(_ reason: String) -> ServiceError { ServiceError(.invalidInput, "Event \(position + 1): \(reason).") }
        guard UUID(uuidString: event.id) != nil else { throw refuse("id must be a UUID") }
        guard Self.isName(event.event) else { throw refuse("event must be a name of lower-case letters, digits and _") }
        guard Self.isName(event.flow, allowingDash: true) else { throw refuse("flow must be a flow id") }
        if let screen = event.screen, !Self.isName(screen, allowingDash: true) { throw refuse("screen must be a screen id") }
        guard Self.isIdentifier(event.userID), Self.isIdentifier(event.anonymousID) else {
            throw refuse("user_id and anonymous_id must be identifiers (letters, digits, - and _)")
        }
        guard let occurredAt = Instant.milliseconds(internetTime: event.timestamp) else {
            throw refuse("timestamp must be RFC 3339 in UTC, like 2026-11-24T06:08:02.123Z")
        }
        guard Self.isVersion(event.appVersion) else { throw refuse("app_version must be a version like 1.4.0") }
        guard event.properties.count <= Self.maximumProperties else { throw refuse("at most \(Self.maximumProperties) properties") }
        for (key, value) in event.properties {
            guard Self.isName(key) else { throw refuse("property names are lower-case letters, digits and _") }
            switch value {
            // Counted in Unicode scalars, as the document's maxLength is.
            case .text(let text):
                guard text.unicodeScalars.count <= Self.maximumText, !text.contains(where: \.isNewline) else {
                    throw refuse("\(key) is too long")
                }
                // What an operator's terminal shows (`onboard-server funnel`): never a
                // character it would act on or reorder, the rule for every name.
                guard !text.hasControlOrBidi else { throw refuse("\(key) holds a control or text-direction character") }
            case .number(let number):
                guard number.isFinite, abs(number) < 1e15 else { throw refuse("\(key) is not a number this service keeps") }
            case .flag: break
            case .list: throw refuse("\(key): lists are not kept")
            }
        }
        func whole(_ key: String) -> Int64? {
            if case .number(let number)? = event.properties[key] { Int64(exactly: number.rounded()) } else { nil }
        }
        func text(_ key: String) -> String? { if case .text(let text)? = event.properties[key] { text } else { nil } }
        id = event.id.lowercased()
        (flow, self.event, screen, userID, anonymousID) = (event.flow, event.event, event.screen, event.userID, event.anonymousID)
        (self.occurredAt, self.receivedAt, appVersion) = (occurredAt, receivedAt, event.appVersion)
        screenIndex = whole("screen_index").map { Int($0) }
        errorCode = text("error_code")
        attemptNumber = whole("attempt_number").map { Int($0) }
        durationMilliseconds = whole("duration_ms")
        version = text(Self.versionProperty)
        startsRun = whole("starts_run") == 1
        let data = try JSONEncoder.sorted.encode(event.properties)
        properties = String(decoding: data, as: UTF8.self)
    }

    static func isName(_ text: String, allowingDash: Bool = false) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F || (allowingDash && byte == 0x2D)
            }
    }

    static func isIdentifier(_ text: String) -> Bool {
        (1...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F || byte == 0x2D
            }
    }

    static func isVersion(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
                    || [0x2E, 0x2D, 0x2B].contains(byte)
            }
    }
}

extension JSONEncoder {
    /// Keys in order: the same properties always make the same text.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension Wire.EventsRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.EventsStored {
        try await service.recordEvents(events, client: caller.client)
    }
}
extension Wire.ForgetEventsRequest: ServedCall {
    public func serve(on service: OnboardService, as caller: Caller) async throws -> Wire.EventsForgotten {
        try await service.forgetEvents(anonymousID: anonymousID, accessToken: caller.bearer, client: caller.client)
    }
}
