import OnboardService
import ServiceAPI
import PostgresNIO

// The statements behind every anonymous sign-in, rate-limit count, session check and
// invite redemption, prepared once per connection: PostgreSQL parses each of them once
// and plans it again only when the connection's plans are discarded (`PlanLifetime`,
// DECISIONS 43), where a plain query is parsed and planned on every request (planning the
// guest statement took about as long as running it; DECISIONS 42). Types are given, so
// a NULL in the first call cannot leave a parameter untyped.

/// A new guest: the user, the first `count` free candidate names, its refresh token.
struct GuestStatement: PostgresPreparedStatement {
    static let sql = """
        WITH new_user AS (
            INSERT INTO users (id, created_at, is_anonymous) VALUES ($1, $2, TRUE)
            ON CONFLICT (id) DO NOTHING RETURNING id
        ), offered AS (
            INSERT INTO name_offers (name, user_id, offered_at)
            SELECT candidate.name, new_user.id, $2
            FROM new_user, unnest($3::text[]) WITH ORDINALITY AS candidate (name, position)
            WHERE NOT EXISTS (SELECT 1 FROM name_offers taken WHERE taken.name = candidate.name)
            ORDER BY candidate.position LIMIT $4
            ON CONFLICT DO NOTHING RETURNING name
        ), token AS (
            INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at, access_lifetime, refresh_lifetime)
            SELECT $5, new_user.id, $6, $7, $8, $9, $10
            FROM new_user
        )
        SELECT EXISTS (SELECT 1 FROM new_user), ARRAY(SELECT name FROM offered)
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .int8, .textArray, .int8, .text, .text, .int8, .int8, .int8, .int8]
    typealias Row = (created: Bool, names: [String])

    var userID: String
    var now: Int64
    var candidates: [String]
    var count: Int
    var token: NewRefreshToken

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 10)
        bindings.append(userID)
        bindings.append(now)
        bindings.append(candidates)
        bindings.append(Int64(count))
        bindings.append(token.hash)
        bindings.append(token.family)
        bindings.append(token.createdAt)
        bindings.append(token.expiresAt)
        bindings.append(token.policy.accessLifetime)
        bindings.append(token.policy.refreshLifetime)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Bool, [String]).self)
    }
}

/// One event counted against each key under one rule (see `PostgresStore.hit`).
struct RateLimitStatement: PostgresPreparedStatement {
    static let sql = counting(keys: "unnest($1::text[]) AS key")
    static let bindingDataTypes: [PostgresDataType] = [.textArray, .int8, .int8, .int8]
    typealias Row = (key: String, start: Int64, count: Int32)

    var sortedKeys: [String]
    var now: Int64
    var rule: RateLimit

    /// The count, one row per key `keys` (a FROM clause) yields: $2 now, $3 the window,
    /// $4 the limit.
    static func counting(keys: String) -> String {
        """
        INSERT INTO rate_limits AS r (key, window_start, count)
        SELECT key, $2, 1 FROM \(keys) ORDER BY key
        ON CONFLICT (key) DO UPDATE SET
            window_start = CASE WHEN $2 - r.window_start >= $3 THEN $2 ELSE r.window_start END,
            count = CASE WHEN $2 - r.window_start >= $3 THEN 1
                         WHEN r.count >= $4 THEN $4 + 1
                         ELSE r.count + 1 END
        RETURNING key, window_start, count
        """
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(sortedKeys)
        bindings.append(now)
        bindings.append(rule.window)
        bindings.append(Int64(rule.limit))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((String, Int64, Int32).self)
    }
}

/// `RateLimitStatement` for a live session only (`LiveSessionStatement`): one row with
/// `live` false and nothing counted when it is not.
struct LiveRateLimitStatement: PostgresPreparedStatement {
    static let sql = """
        WITH live AS (SELECT \(LiveSessionStatement.isLive(user: "$5", family: "$6")) AS live),
        counted AS (\(RateLimitStatement.counting(keys: "unnest($1::text[]) AS key WHERE (SELECT live FROM live)")))
        SELECT live.live, counted.key, counted.window_start, counted.count FROM live LEFT JOIN counted ON TRUE
        """
    static let bindingDataTypes: [PostgresDataType] = [.textArray, .int8, .int8, .int8, .text, .text]
    typealias Row = (live: Bool, key: String?, start: Int64?, count: Int32?)

    var sortedKeys: [String]
    var now: Int64
    var rule: RateLimit
    var userID: String
    var family: String?

    func makeBindings() throws -> PostgresBindings {
        var bindings = try RateLimitStatement(sortedKeys: sortedKeys, now: now, rule: rule).makeBindings()
        bindings.append(userID)
        bindings.append(family)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Bool, String?, Int64?, Int32?).self)
    }
}

/// Whether an access token's account exists and, for a token of a session, whether that
/// session (its refresh family) is still live.
struct LiveSessionStatement: PostgresPreparedStatement {
    static let sql = "SELECT " + isLive(user: "$1", family: "$2")

    /// Whether the account `user` exists and, when `family` is not NULL, that session is live.
    static func isLive(user: String, family: String) -> String {
        """
        EXISTS (SELECT 1 FROM users WHERE id = \(user))
           AND (\(family)::text IS NULL OR EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = \(family) AND revoked_at IS NULL))
        """
    }
    static let bindingDataTypes: [PostgresDataType] = [.text, .text]
    typealias Row = Bool

    var userID: String
    var family: String?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(userID)
        bindings.append(family)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Bool.self)
    }
}

/// An invite redeemed (see `PostgresStore.redeemInvite`): the child and who shared it.
struct InviteRedemptionStatement: PostgresPreparedStatement {
    static let sql = """
        WITH won AS (
            UPDATE invites SET used_at = COALESCE(used_at, $1), used_by = $2
            WHERE code_hash = $3 AND expires_at > $1 AND (used_by = $2 OR (used_at IS NULL AND NOT EXISTS (
                SELECT 1 FROM child_members WHERE child_id = invites.child_id AND user_id = $2)))
            RETURNING child_id, created_by
        ), member AS (
            INSERT INTO child_members (child_id, user_id, granted_by)
            SELECT child_id, $2, created_by FROM won ON CONFLICT DO NOTHING
        )
        SELECT child.id, child.name, child.birth_date, sharer.name, sharer.display_name, sharer.email
        FROM won JOIN children child ON child.id = won.child_id LEFT JOIN users sharer ON sharer.id = won.created_by
        """
    static let bindingDataTypes: [PostgresDataType] = [.int8, .text, .text]
    typealias Row = InviteRedemption

    var now: Int64
    var userID: String
    var codeHash: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(now)
        bindings.append(userID)
        bindings.append(codeHash)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (id, name, birthDate, sharerName, displayName, email) = try row.decode(
            (String, String, String?, String?, String?, String?).self)
        return InviteRedemption(
            child: Child(id: id, name: name, birthDate: birthDate), sharerName: sharerName, sharerDisplayName: displayName,
            sharerEmail: email)
    }
}
