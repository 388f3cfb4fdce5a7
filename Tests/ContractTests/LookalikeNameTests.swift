import Foundation
import OnboardService
import SQLiteStore
import ServiceAPI
import ServiceClient
import TestSupport
import Testing

/// Issue 46 §6 (the display-name uniqueness rule): with `BeaS` taken, `BEAS` and ` beas `
/// were refused but fullwidth `Ｂｅａｓ`, mathematical bold `𝐁𝐞𝐚𝐒` and Cyrillic `ВеаS`
/// were accepted: another person could be shown by a name that reads as someone else's.
/// Names are compared by Unicode TR39 skeletons (`NameKey`).
extension ContractTests {
    @Test(arguments: transports) func aLookalikeOfATakenDisplayNameIsTaken(kind: String) async throws {
        let subject = try await Subject.make(kind)
        defer { subject.server?.stop() }
        let one = try await socialUser(subject.service, "beas.one@example.org")
        let two = try await socialUser(subject.service, "beas.two@example.org")
        _ = try await subject.service.updateProfile(accessToken: one.accessToken, fields: ["display_name": .text("BeaS")])
        for lookalike in ["BEAS", " beas ", "Ｂｅａｓ", "𝐁𝐞𝐚𝐒", "ВеаS", "Bea\u{0455}"] {
            await expectError(.conflict, "That display name is taken. Please choose another.") {
                _ = try await subject.service.updateProfile(accessToken: two.accessToken, fields: ["display_name": .text(lookalike)])
            }
        }
        // A name people are shown by when they have no display name: the same rule.
        _ = try await subject.service.register(flow: "babybasics", name: "Jo Lowe", email: "jo.lowe@example.org", password: "long enough 1")
        await expectError(.conflict, "That display name is taken. Please choose another.") {
            _ = try await subject.service.updateProfile(accessToken: two.accessToken, fields: ["display_name": .text("Jo Ⅼowe")])
        }
        #expect(
            try await subject.service.updateProfile(accessToken: two.accessToken, fields: ["display_name": .text("Beast")]).displayName
                == "Beast")
    }
}

/// The same rule against a third party's reading of Unicode's confusables: every
/// look-alike of a taken name that Python's `confusable-homoglyphs` (PyPI) lists, one
/// character swapped at a time, is refused as taken; names it does not confuse are free.
@Suite struct LookalikeNameReferenceTests {
    static let generator = #"""
        import json, sys
        from confusable_homoglyphs import confusables
        taken = sys.argv[1]
        variants = set()
        for found in confusables.is_confusable(taken, greedy=True) or []:
            for glyph in found["homoglyphs"]:
                for position, character in enumerate(taken):
                    if character == found["character"] and len(glyph["c"]) == 1:
                        variants.add(taken[:position] + glyph["c"] + taken[position + 1:])
        print(json.dumps(sorted(variants)))
        """#

    @Test func everyLookalikeTheReferenceListsIsTaken() async throws {
        let taken = "Beas"
        let run = await Subprocess.run("/usr/bin/env", ["python3", "-c", Self.generator, taken])
        try #require(run.status == 0, "confusable-homoglyphs from PyPI (.ci/run installs it): \(run.output.suffix(400))")
        // Those a display name may hold at all: letters (the rule refuses the rest first).
        let variants = try JSONDecoder().decode([String].self, from: Data(run.output.utf8)).filter { $0.allSatisfy(\.isLetter) }
        #expect(variants.count > 60, "\(variants.count)")
        let differing = variants.filter { NameKey.of($0) != NameKey.of(taken) }
        #expect(differing.isEmpty, "look-alikes the key tells apart from \(taken): \(differing)")
        for free in ["Bear", "Bess", "Beat", "Bias"] { #expect(NameKey.of(free) != NameKey.of(taken), "\(free)") }
        // Case never tells two names apart, even where a letter's upper case has a
        // look-alike of its own (`I` reads as `l`): `ANNIE` was once free beside `Annie`.
        for (name, variants) in [
            ("Annie", ["ANNIE", "annie", "AnNiE", "ANNlE"]), ("Mila", ["MILA", "mila", "rnila"]), ("Iris", ["IRIS", "iris", "lris"]),
        ] {
            for variant in variants { #expect(NameKey.of(variant) == NameKey.of(name), "\(variant) beside \(name)") }
        }

        // And through the service, as a person would meet it.
        let service = try OnboardService(database: ServiceDatabase.open(path: temporaryPath("mock.sqlite")), settings: contractSettings)
        func person(_ email: String) async throws -> String {
            let token = try await service.mockIdentityToken(
                provider: "apple", account: email, audience: MockIdentityProvider.audience, nonce: email)
            return try await service.socialSignIn(provider: "apple", idToken: token, nonce: email, policy: .named).session.accessToken
        }
        _ = try await service.updateProfile(accessToken: try await person("holder@example.org"), fields: ["display_name": .text(taken)])
        let other = try await person("other@example.org")
        for variant in variants.prefix(40) {
            do {
                _ = try await service.updateProfile(accessToken: other, fields: ["display_name": .text(variant)])
                Issue.record("\(variant) was free")
            } catch let error as ServiceError {
                #expect(error.code == .conflict, "\(variant): \(error)")
            }
        }
    }
}
