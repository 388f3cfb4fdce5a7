import OnboardService
import ServiceAPI
import Testing

/// `ProfileStore`'s promises, held on every backend.
@Suite("ProfileStore conformance")
struct ProfileStoreConformance {
    @Test(arguments: Backend.allCases)
    func fieldsMergeADisplayNameIsOnesAloneAndATooLargeProfileIsRefusedWhole(backend: Backend) async throws {
        let store = try await backend.store()
        try await account("a1", email: "ann@example.com", in: store)
        try await account("a2", email: "bob@example.com", name: "Bob", in: store)
        try await account("a3", email: "carol@example.com", name: "Carol", in: store)
        guard case .updated = try await store.updateProfile(of: "a1", with: ["city": .text("Perth")], maximumBytes: 1_000, now: 1_001),
            case .updated(let row) = try await store.updateProfile(
                of: "a1", with: ["display_name": .text("Annie"), "profile_complete": .flag(true)], maximumBytes: 1_000, now: 1_002)
        else { Issue.record("a profile was not saved"); return }
        #expect(row.displayName == "Annie")
        #expect(
            ProfileChange.fields(of: row.fields) == [
                "city": .text("Perth"), "display_name": .text("Annie"), "profile_complete": .flag(true),
            ])
        // Taken as people read it: another's display name in another case, or the name
        // another without one is shown by.
        for taken in ["ANNIE", "carol"] {
            guard
                case .displayNameTaken = try await store.updateProfile(
                    of: "a2", with: ["display_name": .text(taken)], maximumBytes: 1_000, now: 1_003)
            else { Issue.record("\(taken) was given twice"); return }
        }
        guard
            case .tooLarge = try await store.updateProfile(
                of: "a1", with: ["bio": .text(String(repeating: "x", count: 2_000))], maximumBytes: 1_000, now: 1_004)
        else { Issue.record("a profile past its size was kept"); return }
        #expect(ProfileChange.fields(of: try await store.profile(of: "a1").fields)["bio"] == nil)
    }

    @Test(arguments: Backend.allCases)
    func recordsArePutListedAddedToOnceMovedAndMerged(backend: Backend) async throws {
        let store = try await backend.store()
        try await guest("g1", in: store)
        try await account("a1", email: "ann@example.com", in: store)
        try await store.putRecord(.text("metric"), key: "units", for: "g1", now: 1_001)
        #expect(try await store.addRecordItem("ruck 1", key: "rucks", for: "g1", maximumBytes: 1_000, now: 1_002) == ["ruck 1"])
        #expect(try await store.addRecordItem("ruck 1", key: "rucks", for: "g1", maximumBytes: 1_000, now: 1_003) == ["ruck 1"])
        #expect(try await store.addRecordItem("ruck 2", key: "rucks", for: "g1", maximumBytes: 1_000, now: 1_004) == ["ruck 1", "ruck 2"])
        await #expect(throws: ServiceError.self) {
            try await store.addRecordItem("x", key: "units", for: "g1", maximumBytes: 1_000, now: 1_005)
        }
        await #expect(throws: ServiceError.self) {
            try await store.addRecordItem(String(repeating: "x", count: 2_000), key: "rucks", for: "g1", maximumBytes: 1_000, now: 1_006)
        }
        #expect(try await store.records(of: "g1") == ["units": .text("metric"), "rucks": .list(["ruck 1", "ruck 2"])])

        try await store.putRecord(.list(["ruck 0", "ruck 1"]), key: "rucks", for: "a1", now: 1_007)
        try await store.putRecord(.text("imperial"), key: "units", for: "a1", now: 1_007)
        try await store.mergeRecordLists(["rucks"], from: "g1", to: "a1", maximumBytes: 1_000, now: 1_008)
        try await store.moveRecords(["units"], from: "g1", to: "a1", now: 1_009)
        #expect(try await store.records(of: "a1") == ["units": .text("metric"), "rucks": .list(["ruck 0", "ruck 1", "ruck 2"])])
        #expect(try await store.records(of: "g1").isEmpty)
    }
}
