import Foundation
import OnboardRuntime
import TerminalUI
import Testing
import ThemeFiles

/// Where themes are found: the build's, the user's own folder, `NO_COLOR`.
@Suite struct ThemeFilesTests {
    @Test func usersAddTheirOwnThemesInTheConfigFolder() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-config-\(UUID().uuidString)").path
        let folder = config + "/onboard/themes"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "name: sunset\nroles:\n  title: { fg: 208, bold: true }\n".write(
            toFile: folder + "/sunset.yaml", atomically: true, encoding: .utf8)
        try "name: broken\nroles:\n  title: { fg: 300 }\n".write(toFile: folder + "/broken.yaml", atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": config]
        #expect(ThemeFiles.available(environment: environment).suffix(2) == ["broken", "sunset"])
        let sunset = try ThemeFiles.load("sunset", environment: environment)
        #expect(sunset.style(.title) == Theme.Style(foreground: 208, bold: true))
        do {
            _ = try ThemeFiles.load("broken", environment: environment)
            Issue.record("a broken theme loaded")
        } catch {
            #expect("\(error)".hasPrefix(folder + "/broken.yaml:3:16: '300' is not a colour"))
        }
    }

    @Test func themesLoadFromTheBuildAndNoColorMeansMono() throws {
        let theme = try ThemeFiles.load(nil, environment: [:])
        #expect(theme.name == "default")
        #expect(theme.usesColour)
        let mono = try ThemeFiles.load("default", environment: ["NO_COLOR": "1"])
        #expect(mono.name == "mono")
        #expect(!mono.usesColour)
    }
}
