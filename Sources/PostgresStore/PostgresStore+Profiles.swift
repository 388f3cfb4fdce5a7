import Foundation
import Logging
import OnboardService
import PostgresNIO
import ServiceAPI

/// Profiles and records in PostgreSQL.
extension PostgresStore {
    public func profile(of userID: String) async throws -> ProfileRow {
        try await transaction { db in try await Self.profile(of: userID, db, self.logger) }
    }

    public func updateProfile(
        of userID: String, with fields: [String: FieldValue], maximumBytes: Int, now: Int64
    ) async throws -> ProfileUpdate {
        try await transaction(onUniqueViolation: ProfileUpdate.displayNameTaken) { db in
            // The user's row locked: two saves of one profile merge one after the other.
            try await db.query("SELECT 1 FROM users WHERE id = \(userID) FOR UPDATE", logger: self.logger)
            let stored = try await db.first("SELECT data FROM profiles WHERE user_id = \(userID)", as: String.self, logger: self.logger)
            guard let change = try ProfileChange(merging: fields, into: stored, maximumBytes: maximumBytes) else { return .tooLarge }
            if let (displayName, key) = change.displayName {
                // Taken: a name another is shown by (their display name, else their name),
                // compared as people read it (`NameKey`), or a name offered to another
                // (OKLah's pool).
                let taken = try await db.first(
                    """
                    SELECT 1 FROM users WHERE id <> \(userID) AND display_key = \(key)
                    UNION ALL SELECT 1 FROM name_offers WHERE lower(name) = lower(\(displayName)) AND user_id <> \(userID)
                    LIMIT 1
                    """, as: Int32.self, logger: self.logger)
                guard taken == nil else { return .displayNameTaken }
                try await db.query(
                    "UPDATE users SET display_name = \(displayName), display_key = \(key) WHERE id = \(userID)", logger: self.logger)
            }
            if change.completesOnboarding {
                try await db.query("UPDATE users SET onboarding_complete = TRUE WHERE id = \(userID)", logger: self.logger)
            }
            try await db.query(
                """
                INSERT INTO profiles (user_id, data, updated_at) VALUES (\(userID), \(change.json), \(now))
                ON CONFLICT (user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at
                """, logger: self.logger)
            return .updated(try await Self.profile(of: userID, db, self.logger))
        }
    }

    public func putRecord(_ value: FieldValue, key: String, for userID: String, now: Int64) async throws {
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try await transaction { db in
            try await db.query(
                """
                INSERT INTO records (user_id, key, value, updated_at) VALUES (\(userID), \(key), \(text), \(now))
                ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """, logger: self.logger)
        }
    }

    public func addRecordItem(_ item: String, key: String, for userID: String, maximumBytes: Int, now: Int64) async throws -> [String] {
        try await transaction { db in
            // The row is made first if missing, so two first adds both find it and queue on its lock.
            try await db.query(
                "INSERT INTO records (user_id, key, value, updated_at) VALUES (\(userID), \(key), '[]', \(now)) ON CONFLICT (user_id, key) DO NOTHING",
                logger: self.logger)
            var stored: String?
            let rows = try await db.query(
                "SELECT value FROM records WHERE user_id = \(userID) AND key = \(key) FOR UPDATE", logger: self.logger)
            for try await value in rows.decode(String.self) { stored = value }
            let list = try RecordListAppend.adding(item, to: stored, maximumBytes: maximumBytes)
            if list.changed {
                try await db.query(
                    "UPDATE records SET value = \(list.json), updated_at = \(now) WHERE user_id = \(userID) AND key = \(key)",
                    logger: self.logger)
            }
            return list.items
        }
    }

    public func mergeRecordLists(_ keys: [String], from: String, to: String, maximumBytes: Int, now: Int64) async throws {
        try await transaction { db in
            for key in keys {
                var theirs: String?
                for try await value in try await db.query(
                    "SELECT value FROM records WHERE user_id = \(from) AND key = \(key) FOR UPDATE", logger: self.logger
                ).decode(String.self) { theirs = value }
                guard let theirs else { continue }
                try await db.query(
                    "INSERT INTO records (user_id, key, value, updated_at) VALUES (\(to), \(key), '[]', \(now)) ON CONFLICT (user_id, key) DO NOTHING",
                    logger: self.logger)
                var stored: String?
                for try await value in try await db.query(
                    "SELECT value FROM records WHERE user_id = \(to) AND key = \(key) FOR UPDATE", logger: self.logger
                ).decode(String.self) { stored = value }
                for item in RecordListAppend.items(of: theirs) {
                    stored = try RecordListAppend.adding(item, to: stored, maximumBytes: maximumBytes).json
                }
                try await db.query(
                    "UPDATE records SET value = \(stored ?? "[]"), updated_at = \(now) WHERE user_id = \(to) AND key = \(key)",
                    logger: self.logger)
                try await db.query("DELETE FROM records WHERE user_id = \(from) AND key = \(key)", logger: self.logger)
            }
        }
    }

    public func moveRecords(_ keys: [String], from: String, to: String, now: Int64) async throws {
        try await transaction { db in
            for key in keys {
                try await db.query(
                    """
                    INSERT INTO records (user_id, key, value, updated_at) SELECT \(to), key, value, \(now) FROM records WHERE user_id = \(from) AND key = \(key)
                    ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                    """, logger: self.logger)
                try await db.query("DELETE FROM records WHERE user_id = \(from) AND key = \(key)", logger: self.logger)
            }
        }
    }

    public func records(of userID: String) async throws -> [String: FieldValue] {
        try await transaction { db in
            var result: [String: FieldValue] = [:]
            let rows = try await db.query("SELECT key, value FROM records WHERE user_id = \(userID)", logger: self.logger)
            for try await (key, text) in rows.decode((String, String).self) {
                result[key] = try? JSONDecoder().decode(FieldValue.self, from: Data(text.utf8))
            }
            return result
        }
    }

    static func profile(of userID: String, _ db: PostgresConnection, _ logger: Logger) async throws -> ProfileRow {
        let rows = try await db.query(
            """
            SELECT display_name, name, email, phone, is_anonymous, (SELECT data FROM profiles WHERE user_id = users.id)
            FROM users WHERE id = \(userID)
            """, logger: logger)
        var found: ProfileRow?
        for try await (displayName, name, email, phone, anonymous, fields) in rows.decode(
            (String?, String?, String?, String?, Bool, String?).self)
        {
            found = ProfileRow(
                userID: userID, displayName: displayName, name: name, email: email, phone: phone, isAnonymous: anonymous, fields: fields)
        }
        guard var profile = found else { throw ServiceError.sessionRejected }
        // Only once the rows above are read to the end: a query started while another's
        // rows are still arriving on the connection waits behind it for ever.
        if profile.wantsOfferedNames {
            profile.offeredNames = try await db.all(
                "SELECT name FROM name_offers WHERE user_id = \(userID) ORDER BY offered_order", as: String.self, logger: logger)
        }
        return profile
    }
}
