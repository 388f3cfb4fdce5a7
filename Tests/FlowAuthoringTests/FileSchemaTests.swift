import Foundation
import Testing
import FileSchemas
import FlowAuthoring
import FlowFiles
import ScreenTable
import TestSupport

/// The schemas hold every built-in flow and theme, through a real validator (Python's
/// `jsonschema`, as editors' YAML language servers use the same draft), and flag what the
/// loader flags; the copies in `schemas/` are what `onboard schema` prints.
@Suite struct FileSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Reads YAML as YAML 1.2 does (PyYAML is 1.1, where `on:` and `yes` are booleans),
    /// then prints `ok` or each error of each file.
    static let validator = """
        import json, sys, yaml, jsonschema
        class Loader(yaml.SafeLoader): pass
        Loader.yaml_implicit_resolvers = {k: [(t, r) for t, r in v if t != 'tag:yaml.org,2002:bool'] for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
        import re
        Loader.add_implicit_resolver('tag:yaml.org,2002:bool', re.compile(r'^(?:true|True|TRUE|false|False|FALSE)$'), list('tTfF'))
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for path in sys.argv[2:]:
            errors = sorted(validator.iter_errors(yaml.load(open(path), Loader=Loader)), key=lambda e: list(e.absolute_path))
            for error in errors:
                print(path, '/'.join(map(str, error.absolute_path)), error.message)
            if not errors:
                print(path, 'ok')
        """

    func validate(_ schema: FileSchema, _ files: [String]) throws -> String {
        let schemaFile = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-\(UUID().uuidString).json")
        try schema.json().write(to: schemaFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: schemaFile) }
        let result = Subprocess.run("/usr/bin/env", ["python3", "-c", Self.validator, schemaFile.path] + files)
        #expect(result.status == 0, "\(result.output)")
        return result.output
    }

    static var builtinFlowFiles: [String] {
        // The sources, not the build's copies: the schema lines are relative to them.
        BuiltinFlows.ids.map { root.appendingPathComponent("Sources/FlowFiles/BuiltinFlows/\($0).yaml").path }
            + [root.appendingPathComponent("examples/nickname.yaml").path]
    }

    static var themeFiles: [String] {
        let folder = root.appendingPathComponent("Sources/ThemeFiles/Themes")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().map {
            folder.appendingPathComponent($0).path
        }
    }

    @Test func everyBuiltInFlowHoldsToTheFlowSchemaAndLoads() throws {
        let files = Self.builtinFlowFiles
        let output = try validate(.flow, files)
        #expect(output == files.map { "\($0) ok\n" }.joined())
        for file in files { _ = try FlowFiles.load(url: URL(fileURLWithPath: file)) }
    }

    @Test func everyBuiltInThemeHoldsToTheThemeSchema() throws {
        let files = Self.themeFiles
        #expect(files.count == 5)
        #expect(try validate(.theme, files) == files.map { "\($0) ok\n" }.joined())
    }

    /// What the loader rejects, the schema flags too: a misspelt key, an unknown kind, an
    /// operation that does not exist, a result code that does not exist, two steps at once.
    @Test func theSchemaFlagsWhatTheLoaderRejects() throws {
        let mistakes = [
            ("titel: Demo", "Additional properties are not allowed ('titel' was unexpected)"),
            ("    kind: infoo", "'infoo' is not one of"),
            ("        call: sign_in_anonymousl\n        on: { success: two }", "'sign_in_anonymousl' is not one of"),
            ("        call: health\n        on: { success: two, netwrk: two }", "'netwrk' is not one of"),
            ("        go: two\n        back: true", "is valid under each of"),
        ]
        for (index, (change, message)) in mistakes.enumerated() {
            let yaml = Self.demo(change)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-schema-\(index)-\(UUID().uuidString).yaml")
            try yaml.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let output = try validate(.flow, [file.path])
            #expect(output.contains(message), "\(change): \(output)")
            #expect(throws: FlowFileError.self, "the loader takes \(change)") { try FlowFiles.load(url: file) }
        }
        // And the demo itself is fine for both.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-schema-ok-\(UUID().uuidString).yaml")
        try Self.demo("").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try validate(.flow, [file.path]).hasSuffix(" ok\n"))
        _ = try FlowFiles.load(url: file)
    }

    /// A two-screen flow with `change` put in: a top-level line, or lines under the first
    /// screen (4 spaces) or its action (8 spaces).
    static func demo(_ change: String) -> String {
        let title = change.hasPrefix("titel") ? change : "title: Demo"
        let kind = change.hasPrefix("    kind") ? change : "    kind: info"
        let step = change.hasPrefix("        ") ? change : "        go: two"
        return [
            "id: demo", title, "entry:", "  first_launch: one", "screens:",
            "  - id: one", kind, "    title: One", "    actions:", "      - label: Next", step,
            "  - id: two", "    kind: info", "    title: Two", "    complete: true", "",
        ].joined(separator: "\n")
    }

    @Test(arguments: FileSchema.allCases)
    func theCommittedSchemaIsWhatOnboardSchemaPrints(schema: FileSchema) throws {
        let committed = try String(contentsOf: Self.root.appendingPathComponent("schemas/\(schema.fileName)"), encoding: .utf8)
        #expect(
            committed == schema.json(),
            "schemas/\(schema.fileName) is stale: onboard schema \(schema.rawValue) > schemas/\(schema.fileName)")
    }

    @Test func everyBuiltInFileNamesItsSchemaForEditors() throws {
        for file in Self.builtinFlowFiles + Self.themeFiles {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let schema = file.contains("/Themes/") ? FileSchema.theme : .flow
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("# yaml-language-server: $schema=") }, "\(file)")
            let target = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(
                String(line.dropFirst("# yaml-language-server: $schema=".count))
            ).standardized
            #expect(target.path == Self.root.appendingPathComponent("schemas/\(schema.fileName)").standardized.path, "\(file)")
        }
    }
}
