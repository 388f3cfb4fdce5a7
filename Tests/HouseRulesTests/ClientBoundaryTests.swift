import Foundation
import TestSupport
import Testing

/// Issue 50: `onboard` maps no part of the service. The embedded mock is `onboard-mock`, a
/// process of its own, so a start loads no database library; the binary's own symbols
/// hold the rule, as ARCHITECTURE.md's "arrows that must never exist" state it.
@Suite struct ClientBoundaryTests {
    /// Swift modules as their mangled names begin (`$s4GRDB…`), and SQLite's C functions.
    static let serviceParts = ["4GRDB", "14OnboardService", "11SQLiteStore", "12EmbeddedMock", "13PostgresStore", "6JWTKit"]

    @Test func theClientLinksNoPartOfTheService() throws {
        let symbols = Subprocess.run("/usr/bin/env", ["nm", "--defined-only", BuiltExecutable.path("onboard")])
        try #require(symbols.status == 0, "\(symbols.output.prefix(500))")
        let names = symbols.output.split(separator: "\n").compactMap { $0.split(separator: " ").last }
        #expect(names.count > 1000, "the client's symbols were read")
        for part in Self.serviceParts {
            let found = names.filter { $0.hasPrefix("$s" + part) }
            #expect(found.isEmpty, "onboard links \(part.drop { $0.isNumber }): \(found.prefix(3))")
        }
        #expect(!names.contains { $0.hasPrefix("sqlite3_") }, "onboard links SQLite")
        let libraries = Subprocess.run("/usr/bin/env", ["ldd", BuiltExecutable.path("onboard")])
        #expect(!libraries.output.contains("libsqlite3"), "\(libraries.output)")
    }

    /// Issue 50: Foundation and ICU stay off the client's start. What needs them (the YAML
    /// people write) is `onboard-files`, which `onboard` hands such a command on to.
    @Test func theClientMapsNeitherFoundationNorYAML() throws {
        let needed = Subprocess.run("/usr/bin/env", ["readelf", "--dynamic", BuiltExecutable.path("onboard")])
        try #require(needed.status == 0, "\(needed.output.prefix(500))")
        #expect(needed.output.contains("libncursesw"), "the client's libraries were read")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!needed.output.contains("[\(library)]"), "onboard needs \(library)")
        }
        let symbols = Subprocess.run("/usr/bin/env", ["nm", "--defined-only", BuiltExecutable.path("onboard")])
        #expect(!symbols.output.contains("$s4Yams"), "onboard links Yams")
        let tools = Subprocess.run("/usr/bin/env", ["nm", "--defined-only", BuiltExecutable.path("onboard-files")])
        #expect(tools.output.contains("$s4Yams"), "onboard-files is where YAML is read")
    }

    @Test func theEmbeddedMockIsItsOwnProgram() throws {
        let symbols = Subprocess.run("/usr/bin/env", ["nm", "--defined-only", BuiltExecutable.path("onboard-mock")])
        #expect(symbols.output.contains("$s14OnboardService"), "onboard-mock is where the service runs")
    }
}
