import GRDB
@testable import OnboardService
import SQLiteStore
import Testing

/// Names once the 1,600 plain pairs are all taken (`PlainPairs`): guests are offered
/// numbered names without first trying six taken pairs each, and pairs set free again are
/// offered again soon.
@Suite struct PlainPairsTests {
    @Test func pairsSetFreeAreOfferedAgainWithinSixtyFourGuestsOnceThePairsRanOut() async throws {
        var settings = ServiceSettings()
        settings.signInPerAddress = RateLimit(limit: 1000, window: 60)
        let database = try ServiceDatabase.open(path: temporaryDatabasePath())
        let service = try OnboardService(database: database, clock: TestClock(), settings: settings)
        let holder = try await service.signInAnonymously(policy: .anonymous).session.userID
        try await database.write { db in
            for adjective in WordLibrary.adjectives {
                for noun in WordLibrary.nouns {
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO name_offers (name, user_id, offered_at) VALUES (?, ?, 0)",
                        arguments: ["\(adjective) \(noun)", holder])
                }
            }
        }
        for _ in 0..<3 {
            let names = try await service.signInAnonymously(policy: .anonymous).nameOptions
            #expect(names.count == 3 && names.allSatisfy { $0.contains(where: \.isNumber) }, "\(names)")
        }
        #expect(!service.plainPairs.worthDrawing(), "three guests found no pair: the next draws skip them")

        // The holder's offers gone (as when its account is deleted): every pair is free again.
        try await database.write { db in try db.execute(sql: "DELETE FROM name_offers WHERE user_id = ?", arguments: [holder]) }
        var plain: [Bool] = []
        for _ in 1...70 {
            let names = try await service.signInAnonymously(policy: .anonymous).nameOptions
            #expect(names.count == 3)
            plain.append(names.allSatisfy { !$0.contains(where: \.isNumber) })
        }
        let first = try #require(plain.firstIndex(of: true), "no guest was offered a plain pair again")
        #expect(first < 64, "tried again within 64 guests: the first was guest \(first + 1)")
        #expect(plain[first...].allSatisfy { $0 }, "and from then on, every guest")
    }

    @Test func afterThreeGuestsWithoutAPairOneDrawInSixtyFourTriesThem() {
        let pairs = PlainPairs()
        pairs.record(["Sunny Otter", "Brave Comet 12", "Kind Maple 7"])
        #expect(pairs.worthDrawing())
        for _ in 0..<3 { pairs.record(["Sunny Otter 3", "Brave Comet 12", "Kind Maple 7"]) }
        let draws = (1...128).map { _ in pairs.worthDrawing() }
        #expect(draws.filter { $0 }.count == 2)
        #expect(draws[63] && draws[127])
        pairs.record(["Calm Lark", "Bold Wave 5", "Warm Koala 9"])
        #expect(pairs.worthDrawing(), "a guest given a pair: the pairs are worth drawing again")
    }

    /// A guest's offer made up to three after a race (a pair another guest took at the same
    /// moment) goes on with plain pairs while its offer has one; after pairs ran out, with
    /// numbered names.
    @Test func anOfferMadeUpAfterARaceKeepsToPlainPairsWhileItHasOne() {
        var raced = NameDraw(count: 3, avoiding: ["Sunny Otter", "Brave Comet"])
        let next = raced.next()
        #expect(NameDraw.isPlainPair(next), "\(next)")
        #expect(!next.hasPrefix("Sunny ") && !next.hasPrefix("Brave ") && !next.hasSuffix(" Otter") && !next.hasSuffix(" Comet"))
        var ranOut = NameDraw(count: 3, avoiding: ["Sunny Otter 12", "Brave Comet 7"])
        #expect(!NameDraw.isPlainPair(ranOut.next()))
    }
}
