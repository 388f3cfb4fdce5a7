import Foundation
import ServiceAPI

/// Profiles (ABBY's fields beyond the account) and records (a flow's saved values:
/// Baby Basics' settings, RuckTracker's rucks), one JSON value each.
public protocol ProfileStore: Sendable {
    func profile(of userID: String) async throws -> ProfileRow
    /// Merges `fields` into the stored profile as `ProfileChange` decides, in the
    /// transaction that read it; a display name another has is refused.
    func updateProfile(of userID: String, with fields: [String: FieldValue], maximumBytes: Int, now: Int64) async throws -> ProfileUpdate
    func putRecord(_ value: FieldValue, key: String, for userID: String, now: Int64) async throws
    func records(of userID: String) async throws -> [String: FieldValue]
    /// Adds `item` to the list under `key` (made if missing) unless it is there already,
    /// in one transaction that no other write to the record interleaves with; refuses a
    /// value that is not a list, or a list that would pass `maximumBytes` of JSON
    /// (`RecordListAppend`).
    func addRecordItem(_ item: String, key: String, for userID: String, maximumBytes: Int, now: Int64) async throws -> [String]
    /// Moves `keys` that `from` holds to `to` (its own value replaced), in one transaction.
    func moveRecords(_ keys: [String], from: String, to: String, now: Int64) async throws
    /// Adds the items of `from`'s lists under `keys` to `to`'s (as `addRecordItem` does,
    /// in order, none twice) and removes `from`'s, in one transaction.
    func mergeRecordLists(_ keys: [String], from: String, to: String, maximumBytes: Int, now: Int64) async throws
}

public enum ProfileUpdate: Sendable {
    case updated(ProfileRow)
    case tooLarge
    case displayNameTaken
}

/// A user's profile as a store reads it; the domain makes the `Profile` (`Profile(_:)`).
public struct ProfileRow: Sendable, Equatable {
    public var userID: String
    public var displayName: String?
    /// The account's own name (Baby Basics asks for it), shown when there is no display name.
    public var name: String?
    public var email: String?
    public var phone: String?
    public var isAnonymous: Bool
    /// The profile record's JSON object; nil when none was saved.
    public var fields: String?
    /// The names offered to the guest, in order; read only when `wantsOfferedNames`.
    public var offeredNames: [String] = []

    public init(userID: String, displayName: String?, name: String?, email: String?, phone: String?, isAnonymous: Bool, fields: String?) {
        (self.userID, self.displayName, self.name, self.email, self.phone, self.isAnonymous, self.fields) =
            (userID, displayName, name, email, phone, isAnonymous, fields)
    }

    /// A guest that has not picked a name yet: its profile carries the names it was
    /// offered, so a device that lost them (its progress) offers the same ones again.
    public var wantsOfferedNames: Bool { isAnonymous && displayName == nil && name == nil }
}

/// What saving profile fields changes, decided once for both stores inside their
/// transaction: the merged JSON, the display name to claim, whether onboarding ends.
public struct ProfileChange: Sendable {
    /// The stored fields with the new ones over them, as JSON.
    public var json: String
    /// A display name to claim, with its key (`NameKey`): refused when another has it.
    public var displayName: (name: String, key: String)?
    /// A finished profile is a finished onboarding, as the account row says.
    public var completesOnboarding: Bool

    /// nil when the merged profile would pass `maximumBytes`.
    public init?(merging fields: [String: FieldValue], into stored: String?, maximumBytes: Int) throws {
        var merged = Self.fields(of: stored)
        merged.merge(fields) { _, new in new }
        let data = try JSONEncoder().encode(merged)
        guard data.count <= maximumBytes else { return nil }
        json = String(decoding: data, as: UTF8.self)
        if case .text(let name)? = fields["display_name"] { displayName = (name, NameKey.of(name)) }
        completesOnboarding = fields["profile_complete"] == .flag(true)
    }

    /// A profile record's fields; a record that does not decode reads as none.
    public static func fields(of json: String?) -> [String: FieldValue] {
        guard let json else { return [:] }
        return (try? JSONDecoder().decode([String: FieldValue].self, from: Data(json.utf8))) ?? [:]
    }
}
