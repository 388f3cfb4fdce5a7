import Foundation
@testable import OnboardServer
import Testing

/// `openapi.yaml` is what people read and edit; the server serves the copy compiled into
/// it (`CompiledOpenAPI`), since an installed server has no resource bundle beside it.
@Suite struct CompiledOpenAPITests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/OnboardServer/openapi.yaml")
    static let sourceFile = document.deletingLastPathComponent().appendingPathComponent("CompiledOpenAPI.swift")

    static func source(_ text: String) -> String {
        [
            "// Generated from openapi.yaml; do not edit. After changing it, run",
            "//   ONBOARD_REGENERATE=1 swift test --filter CompiledOpenAPITests",
            "",
            "enum CompiledOpenAPI {",
            "    static let text = #\"\"\"",
            text,
            "\"\"\"#",
            "}",
            "",
        ].joined(separator: "\n")
    }

    @Test func theServedDocumentIsTheFile() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let expected = Self.source(text)
        if ProcessInfo.processInfo.environment["ONBOARD_REGENERATE"] == "1" {
            try expected.write(to: Self.sourceFile, atomically: true, encoding: .utf8)
        }
        let committed = (try? String(contentsOf: Self.sourceFile, encoding: .utf8)) ?? ""
        #expect(committed == expected, "CompiledOpenAPI.swift is stale: run ONBOARD_REGENERATE=1 swift test --filter CompiledOpenAPITests")
        #expect(OnboardServer.openAPIDocument == Data(text.utf8))
    }
}
