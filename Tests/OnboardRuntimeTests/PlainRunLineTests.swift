import ArgumentParser
import Testing

@testable import OnboardCommands

/// `onboard`, `onboard run ID` and a state folder are read without ArgumentParser
/// (`PlainRunLine`); what comes of them is what ArgumentParser makes of the same line, and
/// any other line is left to it.
@Suite struct PlainRunLineTests {
    /// ArgumentParser's reading of `arguments`: the flow to run (nil: the picker) and the settings.
    func parsed(_ arguments: [String]) throws -> (flow: String?, settings: RunSettings) {
        switch try Onboard.parseAsRoot(arguments) {
        case let run as Run: return (run.flow, run.options.settings)
        case let pick as Pick: return (nil, pick.options.settings)
        case let other: throw ValidationError("parsed as \(type(of: other))")
        }
    }

    @Test(arguments: [
        [], ["pick"], ["--state-dir", "/tmp/x"], ["--state-dir=/tmp/x"], ["pick", "--state-dir", "/tmp/a b"],
        ["run", "oklah"], ["run", "abby", "--state-dir", "/tmp/x"], ["run", "miga", "--state-dir=/tmp/x"],
        ["run", "rucktracker", "--state-dir=-dashed"],
    ])
    func aPlainLineIsReadAsArgumentParserReadsIt(arguments: [String]) throws {
        let line = try #require(PlainRunLine(arguments, environment: [:]), "\(arguments) read as a plain line")
        let parsed = try parsed(arguments)
        #expect(line.flow == parsed.flow, "\(arguments)")
        #expect(line.settings == parsed.settings, "\(arguments)")
    }

    @Test(arguments: [
        ["run"], ["run", "no-such-flow"], ["run", "--help"], ["run", "oklah", "--theme", "mono"], ["run", "oklah", "--state-dir"],
        ["run", "oklah", "--state-dir", "--accessible"], ["run", "oklah", "--state-dir="], ["run", "oklah", "surplus"],
        ["--state-dir", "/x", "run", "oklah"], ["run", "--state-dir", "/x", "oklah"], ["--accessible"], ["help"], ["flows"],
        ["--version"], ["run", "oklah", "--state-dir", "/x", "--state-dir", "/y"], ["pick", "help"],
    ])
    func anyOtherLineIsLeftToArgumentParser(arguments: [String]) {
        #expect(PlainRunLine(arguments, environment: [:]) == nil, "\(arguments)")
    }

    /// A check ArgumentParser would refuse the line on is its to say, in its words.
    @Test func aLineTheEnvironmentMakesWrongIsLeftToArgumentParser() {
        #expect(PlainRunLine(["run", "oklah"], environment: ["ONBOARD_SECRET_STORE": "vault"]) == nil)
        #expect(PlainRunLine(["run", "oklah"], environment: ["ONBOARD_SECRET_STORE": "file"]) != nil)
    }

    /// `RunOptions.settings` carries every option: each setting is moved from its default
    /// by one of two lines that give every option (`--headless` and `--accessible` exclude
    /// each other).
    @Test func everyOptionReachesTheSettings() throws {
        let common = [
            "run", "oklah", "--state-dir", "/tmp/s", "--secret-store", "file", "--mock-db", "/tmp/m.sqlite", "--service",
            "mock", "--insecure", "--ca-cert", "/tmp/ca.pem", "--theme", "mono", "--watch", "--clock-offset", "1h",
            "--fault", "network", "--simulate", "biometrics=none",
        ]
        let accessible = try parsed(common + ["--accessible"]).settings
        let headless = try parsed(
            common + ["--headless", "--keys", "k.txt", "--size", "10x10", "--frames", "f", "--wait-timeout", "5s", "--cast", "c.cast"]
        ).settings
        for (parts, defaults) in [
            ([accessible, headless] as [Any], RunSettings.defaults as Any),
            ([accessible.local, headless.local], RunSettings.defaults.local),
            ([accessible.connection, headless.connection], RunSettings.defaults.connection),
        ] {
            for (setting, initial) in Mirror(reflecting: defaults).children where !["local", "connection"].contains(setting) {
                let values = parts.map { part in
                    Mirror(reflecting: part).children.first { $0.label == setting }.map { String(reflecting: $0.value) }
                }
                #expect(values.contains { $0 != String(reflecting: initial) }, "\(setting ?? "?") is never set from the command line")
            }
        }
    }
}
