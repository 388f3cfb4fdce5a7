import Foundation
import Installation
import Testing

/// `PathText` reads paths as `NSString` does, which the runtime used before it left
/// Foundation out (issue 50): Foundation is the reference here.
@Suite struct PathTextTests {
    static let paths = [
        "/a/b", "/a/b/", "/a", "/", "a", "a/b", "a/b//", "//a", "/a//b", "", "state/oklah/session.json", "/tmp/x.corrupt-2026",
    ]

    // Foundation's own `deletingLastPathComponent` crashes on a name with no slash (`a`)
    // and on some doubled slashes (`a/b//`): those are held to fixed answers below.
    @Test(arguments: paths.filter { $0.contains("/") && !$0.contains("//") }) func theFolderIsNSStringsFolder(_ path: String) {
        #expect(PathText.folder(of: path) == (path as NSString).deletingLastPathComponent)
    }

    @Test(arguments: paths.filter { !$0.contains("//") }) func theNameIsNSStringsName(_ path: String) {
        #expect(PathText.name(of: path) == (path as NSString).lastPathComponent)
    }

    @Test func whatFoundationCrashesOn() {
        #expect(PathText.folder(of: "a") == "")
        #expect(PathText.name(of: "a") == "a")
        #expect(PathText.folder(of: "a/b//") == "a")
        #expect(PathText.name(of: "a/b//") == "b")
        #expect(PathText.name(of: "/a//b") == "b")
    }

    @Test func joinedPutsOneSlashBetween() {
        #expect(PathText.joined("/a", "b") == "/a/b")
        #expect(PathText.joined("/a/", "b") == "/a/b")
        #expect(PathText.joined("", "b") == "b")
    }
}
