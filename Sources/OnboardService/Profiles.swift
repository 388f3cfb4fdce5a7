import CivilCalendar
import Foundation
import ServiceAPI

/// Profile fields beyond the account (ABBY's basic and extended profile): a small JSON
/// object per user, merged on update. `display_name` is unique service-wide.
extension OnboardService {
    static let maximumProfileBytes = 16 * 1024

    /// Merges `fields` into the profile and returns the whole profile.
    public func updateProfile(accessToken: String, fields: [String: FieldValue]) async throws -> Profile {
        let (userID, _) = try await authenticate(accessToken)
        let now = clock.now()
        let fields = ProfileRules.normalised(fields)
        try ProfileRules.check(fields, today: CivilDate(milliseconds: now * 1000, utcOffset: 0))
        switch try await store.updateProfile(of: userID, with: fields, maximumBytes: Self.maximumProfileBytes, now: now) {
        case .updated(let row): return Profile(row)
        case .tooLarge: throw ServiceError(.invalidInput, "The profile is too large.")
        case .displayNameTaken: throw ServiceError(.conflict, "That display name is taken. Please choose another.")
        }
    }
}

extension Profile {
    /// The profile a store's row stands for: shown by the display name, else the
    /// account's name; a guest that has not picked yet carries the names it was offered.
    public init(_ row: ProfileRow) {
        var fields = ProfileChange.fields(of: row.fields)
        if row.wantsOfferedNames, !row.offeredNames.isEmpty { fields[Profile.nameOptionsField] = .list(row.offeredNames) }
        self.init(
            userID: row.userID, displayName: row.displayName ?? row.name, email: row.email, phone: row.phone, isAnonymous: row.isAnonymous,
            fields: fields)
    }
}
