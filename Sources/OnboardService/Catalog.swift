import Foundation
import ServiceAPI

/// App configuration (validation limits, feature switches) and content libraries.
extension OnboardService {
    /// The values clients validate against (ABBY) and MIGA's remote-config keys.
    public func appConfig() async throws -> [String: FieldValue] {
        let overrides = configOverrides.withLock { $0 }
        return [
            "min_age": .number(18), "max_age": .number(99),
            "full_name_min": .number(2), "full_name_max": .number(50),
            "display_name_min": .number(2), "display_name_max": .number(30),
            "sms_code_length": .number(6), "sms_resend_after": .number(Double(settings.smsResendAfter)),
            "password_min": .number(8),
            "content_sync_enabled": .flag(true), "onboarding_flow_version": .text("1.0"),
        ].merging(overrides) { _, override in override }
    }

    /// QA: serve these remote-config values instead (`POST /api/v1/dev/config`), even
    /// malformed ones, to see clients fall back; empty restores the defaults.
    public func overrideConfig(_ values: [String: FieldValue]) {
        configOverrides.withLock { $0 = values }
    }

    /// A content library by kind: `motivation` (OKLah) or `mindfulness` (MIGA), for a
    /// signed-in user (a guest will do).
    public func content(accessToken: String, kind: String) async throws -> [ContentEntry] {
        _ = try await authenticate(accessToken)
        switch kind {
        case "motivation":
            return WordLibrary.motivations.enumerated().map { ContentEntry(id: "m\($0.offset + 1)", title: "Motivation", body: $0.element) }
        case "mindfulness":
            return WordLibrary.mindfulness.enumerated().map {
                ContentEntry(id: "p\($0.offset + 1)", title: $0.element.0, body: $0.element.1)
            }
        default:
            throw ServiceError(.notFound, "There is no content of kind '\(kind)'.")
        }
    }
}

/// Small per-user records (RuckTracker's workouts and purchases): they belong to the
/// user id, so they stay with a guest who later adds an email.
extension OnboardService {
    public func putRecord(accessToken: String, key: String, value: FieldValue, idempotencyKey: String? = nil) async throws {
        let (userID, _) = try await authenticate(accessToken)
        // Bound to the record, not its value: a retry after a lost reply reads the list
        // again and writes what it finds, which may differ; the key is the caller's own.
        _ = try await idempotent(idempotencyKey, operation: "put_record", caller: userID, request: ["key": key]) {
            () async throws -> RecordWritten in
            try await writeRecord(userID: userID, key: key, value: value)
            return RecordWritten()
        }
    }

    /// Adds `item` to the list under `key`, in the store's one step (`addRecordItem`):
    /// concurrent adds from two devices both land; an item already there is not added
    /// again. The list as it is now.
    public func addRecordItem(accessToken: String, key: String, item: String, idempotencyKey: String? = nil) async throws -> [String] {
        let (userID, _) = try await authenticate(accessToken)
        try Self.checkRecordKey(key)
        guard !item.isEmpty, item.utf8.count <= 1024 else { throw ServiceError(.invalidInput, "A record item is 1 to 1,024 bytes.") }
        // Bound to the record, not the item: a retry of one Save (whose entry may carry a
        // later stamp) replays the first answer and adds nothing.
        return try await idempotent(idempotencyKey, operation: "add_record_item", caller: userID, request: ["key": key]) {
            Wire.RecordItems(
                items: try await store.addRecordItem(item, key: key, for: userID, maximumBytes: Self.recordBytes, now: clock.now()))
        }.items
    }

    /// What a repeated record write replays: that it was written.
    struct RecordWritten: Codable, Sendable {}

    /// ASCII letters, digits, '-', '_' and '.': the rule the OpenAPI document states.
    static let recordKeyBytes = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.".utf8)

    /// A record's JSON is at most 16 KiB.
    static let recordBytes = 16 * 1024

    static func checkRecordKey(_ key: String) throws {
        guard (1...64).contains(key.utf8.count), key.utf8.allSatisfy({ recordKeyBytes.contains($0) }) else {
            throw ServiceError(.invalidInput, "A record key is 1 to 64 letters, digits, '-', '_' or '.'.")
        }
    }

    private func writeRecord(userID: String, key: String, value: FieldValue) async throws {
        let now = clock.now()
        try Self.checkRecordKey(key)
        guard try JSONEncoder().encode(value).count <= Self.recordBytes else {
            throw ServiceError(.invalidInput, "The record is too large.")
        }
        try await store.putRecord(value, key: key, for: userID, now: now)
    }

    public func records(accessToken: String) async throws -> [String: FieldValue] {
        let (userID, _) = try await authenticate(accessToken)
        return try await store.records(of: userID)
    }
}
