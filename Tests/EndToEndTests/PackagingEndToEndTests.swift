import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Issue 36: `packaging/build-deb` makes both Debian packages from a release build, and
    /// `packaging/check-deb` checks them without installing anything: lintian, the unit
    /// through `systemd-analyze verify`, and the programs run from the unpacked root.
    @Suite struct PackagingEndToEndTests {
        @Test func bothPackagesBuildPassLintianAndRunFromAnUnpackedRoot() async throws {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-deb-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            // The release build keeps its own scratch folder (.build-release), so a second
            // run only relinks.
            let built = await Subprocess.run(Tmux.packageRoot + "/packaging/build-deb", [out])
            try #require(built.status == 0, "\(built.output.suffix(3000))")
            let packages = built.output.split(separator: "\n").filter { $0.hasSuffix(".deb") }.map { ($0 as NSString).lastPathComponent }
            #expect(packages == ["onboard_0.1.0_amd64.deb", "onboard-server_0.1.0_amd64.deb"], "\(packages)")

            let checked = await Subprocess.run(Tmux.packageRoot + "/packaging/check-deb", [out])
            #expect(checked.status == 0, "\(checked.output)")
            let lines = checked.output.split(separator: "\n").map(String.init)
            // lintian said nothing at error or warning level (what it overrides, it explains).
            #expect(!lines.contains { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }, "\(checked.output)")
            #expect(lines.contains { $0.hasPrefix("onboard --version: 0.1.0 (release build") }, "\(checked.output)")
            #expect(lines.contains { $0.hasPrefix("onboard-server from the root: http://127.0.0.1:") }, "\(checked.output)")
            #expect(lines.contains { $0.hasSuffix("/etc/onboard-server/config.yaml: ok") }, "\(checked.output)")
            #expect(!lines.contains { $0.hasPrefix("FAIL") }, "\(checked.output)")

            // What an operator's dpkg would see: the unit, its configuration as a conffile,
            // the SQLite file's home in the state directory.
            let server = out + "/onboard-server_0.1.0_amd64.deb"
            let contents = await Subprocess.run("/usr/bin/dpkg-deb", ["-c", server]).output
            #expect(contents.contains("./lib/systemd/system/onboard-server.service"))
            #expect(contents.contains("./usr/share/man/man1/onboard-server.1.gz"))
            #expect(await Subprocess.run("/usr/bin/dpkg-deb", ["-f", server, "Depends"]).output.contains("libsqlite3-0"))
            let conffiles = await Subprocess.run("/bin/sh", ["-c", "dpkg-deb --ctrl-tarfile '\(server)' | tar -xOf - ./conffiles"]).output
            #expect(conffiles == "/etc/onboard-server/config.yaml\n")
        }
    }
}
