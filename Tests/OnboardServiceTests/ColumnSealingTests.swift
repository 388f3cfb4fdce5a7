import Crypto
import Foundation
import OnboardService
import SQLiteStore
import ServiceAPI
import Testing

/// Issue 30: the embedded mock kept ABBY's full name, phone and birth date in clear in
/// `mock.sqlite-wal`. A state folder's mock seals every personal column with a key from
/// the folder; what a person typed is read back whole, looked up and kept unique as
/// before, and found nowhere in the file's bytes.
@Suite struct ColumnSealingTests {
    let path = temporaryDatabasePath()
    let clock = TestClock()
    let key = SymmetricKey(size: .bits256)

    /// What a person gives the mock across the five flows, each as typed.
    static let personal = [
        "Ana Quintero", "ana.quintero@example.org", "16505550142", "Quintero99", "Valparaíso",
        "Mila Quintero", "2025-02-03", "Cerro Alegre",
    ]

    func sealed(_ key: SymmetricKey) throws -> OnboardService {
        try OnboardService(database: ServiceDatabase.open(path: path, sealer: ColumnSealer { key }), clock: clock)
    }

    /// Every value above, through the service's own operations.
    func giveEverything(to service: OnboardService) async throws -> IssuedSession {
        let account = try await service.register(
            name: "Ana Quintero", email: "ana.quintero@example.org", password: "a long passphrase", policy: .named)
        _ = try await service.updateProfile(
            accessToken: account.accessToken, fields: ["display_name": .text("Quintero99"), "bio": .text("Valparaíso")])
        _ = try await service.addChild(accessToken: account.accessToken, name: "Mila Quintero", birthDate: "2025-02-03")
        try await service.putRecord(accessToken: account.accessToken, key: "ruck-1", value: .text("12.5 km, Cerro Alegre"))
        _ = try await service.sendPhoneCode(phone: "+16505550142")
        return account
    }

    /// The bytes of the database and its log, as anyone who copies the folder reads them.
    var fileText: String {
        ["", "-wal", "-shm"].compactMap { FileManager.default.contents(atPath: path + $0) }
            .map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    func expectEverythingReadsBack(_ service: OnboardService, _ account: IssuedSession) async throws {
        let profile = try await service.profile(accessToken: account.accessToken)
        #expect(profile.email == "ana.quintero@example.org")
        #expect(profile.displayName == "Quintero99")
        #expect(profile.fields["bio"] == .text("Valparaíso"))
        let children = try await service.children(accessToken: account.accessToken)
        #expect(children.map(\.name) == ["Mila Quintero"] && children.first?.birthDate == "2025-02-03")
        #expect(try await service.records(accessToken: account.accessToken)["ruck-1"] == .text("12.5 km, Cerro Alegre"))
        #expect(try await service.outbox().last?.destination == "+16505550142")
        // Looked up by the sealed value: logging in, a taken email, a taken display name (any case).
        _ = try await service.login(email: "Ana.Quintero@example.org", password: "a long passphrase", policy: .named)
        await #expect(throws: ServiceError.self) {
            _ = try await service.register(name: "Other", email: "ana.quintero@example.org", password: "a long passphrase", policy: .named)
        }
        let other = try await service.register(name: "Other", email: "other@example.org", password: "a long passphrase", policy: .named)
        await #expect(throws: ServiceError.self) {
            _ = try await service.updateProfile(accessToken: other.accessToken, fields: ["display_name": .text("quintero99")])
        }
        // The code sent to the sealed phone number signs in with it.
        let code = try #require(try await service.outbox().last { $0.kind == "sms" }?.code)
        let phone = try await service.verifyPhoneCode(phone: "+16505550142", code: code, policy: .named)
        #expect(phone.isNewUser)
    }

    @Test func aStateFoldersMockKeepsNoPersonalValueInClear() async throws {
        let service = try sealed(key)
        let account = try await giveEverything(to: service)
        try await expectEverythingReadsBack(service, account)
        let text = fileText
        let inClear = Self.personal.filter { text.contains($0) }
        #expect(inClear.isEmpty, "mock.sqlite holds these in clear")
    }

    /// A mock file from before sealing (every existing state folder) is sealed the first
    /// time its folder opens it, and keeps every value.
    @Test func aMockFileFromBeforeSealingIsSealedWhenItsFolderOpensIt() async throws {
        let account: IssuedSession
        do {
            let unsealed = try OnboardService(database: ServiceDatabase.open(path: path), clock: clock)
            account = try await giveEverything(to: unsealed)
        }
        let before = fileText.contains("Mila Quintero")
        #expect(before, "the test starts from values in clear")
        let service = try sealed(key)
        try await expectEverythingReadsBack(service, account)
        let text = fileText
        let inClear = Self.personal.filter { text.contains($0) }
        #expect(inClear.isEmpty, "mock.sqlite still holds these in clear")
    }

    /// A file sealed with another key (a keyring reset, a folder copied from elsewhere) is
    /// refused as such, and so is a sealed file opened as a plain one (a shared
    /// `--mock-db`, onboard-server): neither reads ciphertext as names.
    @Test func aFileSealedWithAnotherKeyIsNeverReadAsGarbage() async throws {
        _ = try await giveEverything(to: try sealed(key))
        #expect(throws: ColumnSealer.ForeignKey.self) {
            _ = try ServiceDatabase.open(path: path, sealer: ColumnSealer { SymmetricKey(size: .bits256) })
        }
        let refused = #expect(throws: ServiceError.self) { _ = try ServiceDatabase.open(path: path) }
        #expect(refused?.message.contains("sealed with its state folder's key") == true)
        // The right key still opens everything.
        #expect(try await sealed(key).outbox().last?.destination == "+16505550142")
    }
}
