import Crypto
import OnboardService
import PostgresStore
import SQLiteStore
import ServiceAPI
import Testing

/// Every backend `ServiceStore` has, for the conformance suites (one per aggregate, as
/// Ory Kratos' `TestPersister` runs one suite per persister over every database): the
/// server's plain SQLite file, the embedded mock's sealed one, and PostgreSQL.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, sealedSQLite = "sealed-sqlite", postgres

    var testDescription: String { rawValue }

    func store() async throws -> any ServiceStore {
        switch self {
        case .sqlite: SQLiteStore(try ServiceDatabase.open(path: temporaryPath("store.sqlite")))
        case .sealedSQLite:
            SQLiteStore(try ServiceDatabase.open(path: temporaryPath("mock.sqlite"), sealer: ColumnSealer { SymmetricKey(size: .bits256) }))
        case .postgres: try await PostgresSubject.store()
        }
    }
}

/// A refresh token for `userID` in a family of its own, issued at `now`.
func refreshToken(for userID: String, now: Int64 = 1_000, policy: TokenPolicy = .anonymous, family: String? = nil) -> NewRefreshToken {
    NewRefreshToken(
        hash: "hash-\(userID)-\(now)-\(Int.random(in: 0..<1_000_000))", userID: userID, family: family ?? "family-\(userID)-\(now)",
        now: now, policy: policy)
}

/// A guest with its three names.
@discardableResult
func guest(_ userID: String, in store: any ServiceStore, now: Int64 = 1_000) async throws -> (names: [String], token: NewRefreshToken) {
    let token = refreshToken(for: userID, now: now)
    return (try await store.createGuest(userID, at: now, names: NameDraw(count: 3), token: token), token)
}

/// An email account.
func account(_ userID: String, email: String, name: String = "Johnny", in store: any ServiceStore, now: Int64 = 1_000) async throws {
    let made = try await store.createAccount(
        userID, at: now, email: email, passwordHash: "hash", name: name, token: refreshToken(for: userID, now: now, policy: .named))
    #expect(made)
}
