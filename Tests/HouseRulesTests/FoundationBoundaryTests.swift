import Foundation
import Testing

/// Issue 50: what the first frame draws with is written against the standard library and
/// FoundationEssentials, so Foundation (and ICU with it) can stay off a launch. What needs
/// Foundation (YAML through Yams, a package's resources through `Bundle`) lives in
/// modules of its own (`FlowFiles`, `ThemeFiles`, `FileSchemas`), linked only into
/// `onboard-files`, which `onboard` hands a command that reads such a file.
@Suite struct FoundationBoundaryTests {
    /// The screen table and the engine, the renderer, the service's contract and the rules
    /// they share, where files and programs are, the transports, the runtime, the QA
    /// console's coverage and the client's commands.
    static let firstFrameModules = [
        "ServiceAPI", "CivilCalendar", "InputRules", "ScreenTable", "FlowEngine", "TerminalUI", "QRCode",
        "Installation", "OwnThread", "LineChannel", "ServiceClient", "FunnelText", "OnboardRuntime", "FlowAuthoring",
        "CursesBackend", "OnboardCommands", "onboard",
    ]

    @Test(arguments: firstFrameModules) func importsNoFoundation(module: String) {
        let files = SourceFormatTests.swiftFiles(under: "Sources/\(module)")
        #expect(!files.isEmpty, "Sources/\(module) was read")
        let importing = files.filter { path in
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").contains {
                $0.hasPrefix("import Foundation") && $0 != "import FoundationEssentials"
                    || $0.hasPrefix("import Yams") || $0.hasPrefix("@preconcurrency import Foundation")
            }
        }
        #expect(
            importing.isEmpty,
            "import FoundationEssentials, or move it to a module of its own: \(importing.map { ($0 as NSString).lastPathComponent })")
    }

    /// A package resource brings SwiftPM's `Bundle.module` accessor, which imports Foundation.
    @Test(arguments: firstFrameModules) func holdsNoResources(module: String) throws {
        let folder = SourceFormatTests.root.appendingPathComponent("Sources/\(module)").path
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        let others = enumerator.compactMap { $0 as? String }.filter {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isFolder)
            return !isFolder.boolValue && !$0.hasSuffix(".swift")
        }
        #expect(others.isEmpty, "\(others)")
    }

    /// An installed program has no SwiftPM resource bundle beside it (the .deb ships none):
    /// `Bundle.module` would stop it with a fatal error there (`onboard flows abby`, the
    /// server's `openapi.yaml` did). What a program serves or prints is compiled in.
    @Test func noProgramReadsAResourceBundle() throws {
        let readers = SourceFormatTests.swiftFiles(under: "Sources").filter {
            ((try? String(contentsOfFile: $0, encoding: .utf8)) ?? "").contains("Bundle" + ".module")
        }
        #expect(readers.isEmpty, "\(readers)")
        let manifest = try String(contentsOf: SourceFormatTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(!manifest.contains("resources:"), "a target holds package resources")
    }
}
