import FlowFiles
import Foundation
import Testing
@testable import ScreenTable

/// The built-in flows ship as YAML (what people edit) and as Swift built from it (what a
/// launch uses, with no parse). These keep the two the same.
@Suite struct CompiledFlowsTests {
    static let sourceFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ScreenTable/CompiledFlows.swift")

    static let guestPoliciesFile = sourceFile.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("OnboardService/CompiledGuestPolicies.swift")

    func parsed() throws -> [Flow] {
        try BuiltinFlows.ids.map(FlowFiles.builtin)
    }

    @Test func theCompiledSourceIsWhatTheYAMLSays() throws {
        let expected = CompiledFlowSource.file(try parsed())
        if ProcessInfo.processInfo.environment["ONBOARD_REGENERATE"] == "1" {
            try expected.write(to: Self.sourceFile, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: Self.sourceFile, encoding: .utf8)
        #expect(committed == expected, "CompiledFlows.swift is stale: run ONBOARD_REGENERATE=1 swift test --filter CompiledFlowsTests")
    }

    @Test func theServicesGuestLifetimesAreWhatTheYAMLSays() throws {
        let expected = CompiledFlowSource.guestPoliciesFile(try parsed())
        if ProcessInfo.processInfo.environment["ONBOARD_REGENERATE"] == "1" {
            try expected.write(to: Self.guestPoliciesFile, atomically: true, encoding: .utf8)
        }
        let committed = (try? String(contentsOf: Self.guestPoliciesFile, encoding: .utf8)) ?? ""
        #expect(
            committed == expected, "CompiledGuestPolicies.swift is stale: run ONBOARD_REGENERATE=1 swift test --filter CompiledFlowsTests")
    }

    static let textsFile = sourceFile.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FlowFiles/CompiledFlowTexts.swift")

    /// The YAML files as `onboard flows ID` prints them, compiled in.
    @Test func theCompiledTextsAreTheYAMLFiles() throws {
        let folder = Self.textsFile.deletingLastPathComponent().appendingPathComponent("BuiltinFlows")
        let texts = try BuiltinFlows.ids.map { id in
            (id, try String(contentsOf: folder.appendingPathComponent("\(id).yaml"), encoding: .utf8))
        }
        let expected = CompiledFlowSource.textsFile(texts)
        if ProcessInfo.processInfo.environment["ONBOARD_REGENERATE"] == "1" {
            try expected.write(to: Self.textsFile, atomically: true, encoding: .utf8)
        }
        let committed = (try? String(contentsOf: Self.textsFile, encoding: .utf8)) ?? ""
        #expect(committed == expected, "CompiledFlowTexts.swift is stale: run ONBOARD_REGENERATE=1 swift test --filter CompiledFlowsTests")
    }

    @Test(arguments: BuiltinFlows.ids)
    func aBuiltInFlowLoadsAsItsYAMLReads(id: String) throws {
        let fromYAML = try FlowFiles.builtin(id)
        #expect(try BuiltinFlows.load(id) == fromYAML)
    }

    @Test func anUnknownIdSaysWhichFlowsAreBuiltIn() {
        #expect(throws: FlowFileError.self) { try BuiltinFlows.load("nope") }
        #expect(CompiledFlows.flow("nope") == nil)
    }
}
