import CivilCalendar
import Foundation
import GRDB
import ServiceAPI


/// Profile fields beyond the account (ABBY's basic and extended profile): a small JSON
/// object per user, merged on update. `display_name` is unique service-wide.
extension OnboardService {
    static let maximumProfileBytes = 16 * 1024

    /// Merges `fields` into the profile and returns the whole profile.
    public func updateProfile(accessToken: String, fields: [String: FieldValue]) async throws -> Profile {
        let (userID, _) = try await authenticate(accessToken)
        let now = clock.now()
        try ProfileRules.check(fields, today: CivilDate(milliseconds: now * 1000, utcOffset: 0))
        return try await write { db in
            var merged = try Self.fields(of: userID, in: db)
            merged.merge(fields) { _, new in new }
            let data = try JSONEncoder().encode(merged)
            guard data.count <= Self.maximumProfileBytes else {
                throw ServiceError(.invalidInput, "The profile is too large.")
            }
            if case .text(let displayName)? = fields["display_name"] {
                let taken = try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM users WHERE display_name = ? COLLATE NOCASE AND id != ?", arguments: [displayName, userID]) ?? false
                guard !taken else { throw ServiceError(.conflict, "That display name is taken. Please choose another.") }
                try db.execute(sql: "UPDATE users SET display_name = ? WHERE id = ?", arguments: [displayName, userID])
            }
            if fields["profile_complete"] == .flag(true) {
                // A finished profile is a finished onboarding, as the account row says.
                try db.execute(sql: "UPDATE users SET onboarding_complete = 1 WHERE id = ?", arguments: [userID])
            }
            try db.execute(
                sql: "INSERT INTO profiles (user_id, data, updated_at) VALUES (?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
                arguments: [userID, String(decoding: data, as: UTF8.self), now])
            return try Self.profile(of: userID, in: db)
        }
    }

    static func fields(of userID: String, in db: Database) throws -> [String: FieldValue] {
        guard let text = try String.fetchOne(db, sql: "SELECT data FROM profiles WHERE user_id = ?", arguments: [userID]) else { return [:] }
        return (try? JSONDecoder().decode([String: FieldValue].self, from: Data(text.utf8))) ?? [:]
    }
}
