import Foundation
import GRDB
import OnboardService
import ServiceAPI

/// Profiles and records in SQLite.
extension SQLiteStore {
    public func profile(of userID: String) async throws -> ProfileRow {
        try await read { db in try Self.profile(of: userID, in: db) }
    }

    public func updateProfile(
        of userID: String, with fields: [String: FieldValue], maximumBytes: Int, now: Int64
    ) async throws -> ProfileUpdate {
        try await write { db in
            let stored = try String.fetchOne(db, sql: "SELECT unseal(data) FROM profiles WHERE user_id = ?", arguments: [userID])
            guard let change = try ProfileChange(merging: fields, into: stored, maximumBytes: maximumBytes) else { return .tooLarge }
            if let (displayName, key) = change.displayName {
                // Taken: a name another is shown by (their display name, else their name),
                // compared as people read it (`NameKey`), or a name offered to another
                // (OKLah's pool).
                let taken =
                    try Bool.fetchOne(
                        db,
                        sql: """
                            SELECT 1 FROM users WHERE id != ?2 AND display_key = seal_key(?3)
                            UNION ALL SELECT 1 FROM name_offers WHERE name = ?1 COLLATE NOCASE AND user_id != ?2
                            LIMIT 1
                            """,
                        arguments: [displayName, userID, key]) ?? false
                guard !taken else { return .displayNameTaken }
                try db.execute(
                    sql: "UPDATE users SET display_name = seal_key(?), display_key = seal_key(?) WHERE id = ?",
                    arguments: [displayName, key, userID])
            }
            if change.completesOnboarding {
                try db.execute(sql: "UPDATE users SET onboarding_complete = 1 WHERE id = ?", arguments: [userID])
            }
            try db.execute(
                sql:
                    "INSERT INTO profiles (user_id, data, updated_at) VALUES (?, seal(?), ?) ON CONFLICT(user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
                arguments: [userID, change.json, now])
            return .updated(try Self.profile(of: userID, in: db))
        }
    }

    public func putRecord(_ value: FieldValue, key: String, for userID: String, now: Int64) async throws {
        let data = try JSONEncoder().encode(value)
        try await write { db in
            try db.execute(
                sql:
                    "INSERT INTO records (user_id, key, value, updated_at) VALUES (?, ?, seal(?), ?) ON CONFLICT(user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                arguments: [userID, key, String(decoding: data, as: UTF8.self), now])
        }
    }

    public func addRecordItem(_ item: String, key: String, for userID: String, maximumBytes: Int, now: Int64) async throws -> [String] {
        try await write { db in
            let stored = try String.fetchOne(
                db, sql: "SELECT unseal(value) FROM records WHERE user_id = ? AND key = ?", arguments: [userID, key])
            let list = try RecordListAppend.adding(item, to: stored, maximumBytes: maximumBytes)
            if list.changed {
                try db.execute(
                    sql:
                        "INSERT INTO records (user_id, key, value, updated_at) VALUES (?, ?, seal(?), ?) ON CONFLICT(user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                    arguments: [userID, key, list.json, now])
            }
            return list.items
        }
    }

    public func mergeRecordLists(_ keys: [String], from: String, to: String, maximumBytes: Int, now: Int64) async throws {
        try await write { db in
            for key in keys {
                guard
                    let theirs = try String.fetchOne(
                        db, sql: "SELECT unseal(value) FROM records WHERE user_id = ? AND key = ?", arguments: [from, key])
                else { continue }
                var stored = try String.fetchOne(
                    db, sql: "SELECT unseal(value) FROM records WHERE user_id = ? AND key = ?", arguments: [to, key])
                for item in RecordListAppend.items(of: theirs) {
                    stored = try RecordListAppend.adding(item, to: stored, maximumBytes: maximumBytes).json
                }
                try db.execute(
                    sql:
                        "INSERT INTO records (user_id, key, value, updated_at) VALUES (?, ?, seal(?), ?) ON CONFLICT(user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                    arguments: [to, key, stored ?? "[]", now])
                try db.execute(sql: "DELETE FROM records WHERE user_id = ? AND key = ?", arguments: [from, key])
            }
        }
    }

    public func moveRecords(_ keys: [String], from: String, to: String, now: Int64) async throws {
        try await write { db in
            for key in keys {
                try db.execute(
                    sql: """
                        INSERT INTO records (user_id, key, value, updated_at) SELECT ?, key, value, ? FROM records WHERE user_id = ? AND key = ?
                        ON CONFLICT(user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                        """,
                    arguments: [to, now, from, key])
                try db.execute(sql: "DELETE FROM records WHERE user_id = ? AND key = ?", arguments: [from, key])
            }
        }
    }

    public func records(of userID: String) async throws -> [String: FieldValue] {
        try await read { db in
            var result: [String: FieldValue] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, unseal(value) AS value FROM records WHERE user_id = ?", arguments: [userID]) {
                let text: String = row["value"]
                result[row["key"]] = try? JSONDecoder().decode(FieldValue.self, from: Data(text.utf8))
            }
            return result
        }
    }

    static func profile(of userID: String, in db: Database) throws -> ProfileRow {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT unseal(display_name) AS display_name, unseal(name) AS name, unseal(email) AS email, unseal(phone) AS phone, is_anonymous,
                        (SELECT unseal(data) FROM profiles WHERE user_id = users.id) AS data
                    FROM users WHERE id = ?
                    """, arguments: [userID])
        else { throw ServiceError.sessionRejected }
        var profile = ProfileRow(
            userID: userID, displayName: row["display_name"], name: row["name"], email: row["email"], phone: row["phone"],
            isAnonymous: row["is_anonymous"], fields: row["data"])
        if profile.wantsOfferedNames {
            profile.offeredNames = try String.fetchAll(
                db, sql: "SELECT name FROM name_offers WHERE user_id = ? ORDER BY rowid", arguments: [userID])
        }
        return profile
    }
}
