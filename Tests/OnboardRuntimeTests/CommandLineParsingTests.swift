import ArgumentParser
import Testing

@testable import OnboardCommands

/// The command lines started most are parsed by their command alone
/// (`Onboard.parsedByItsCommand`); what comes of them is what the root's parse makes, and
/// a line that command does not take is left to the root.
@Suite struct CommandLineParsingTests {
    /// The same declarations parsed two ways: every option's parsed value alike.
    func parsedAlike(_ arguments: [String]) throws -> Bool {
        let direct = try #require(Onboard.parsedByItsCommand(arguments), "\(arguments) parsed by its command")
        let root = try Onboard.parseAsRoot(arguments)
        return type(of: direct) == type(of: root) && String(reflecting: direct) == String(reflecting: root)
    }

    @Test(arguments: [
        [], ["--accessible"], ["--state-dir", "/tmp/x", "--theme", "mono"], ["pick", "--service", "mock"],
        ["run", "oklah"], ["run", "oklah", "--state-dir", "/tmp/x", "--mock-db", "/tmp/x/m.sqlite"],
        ["run", "--state-dir", "/tmp/x", "abby", "--clock-offset", "-1h", "--accessible"],
    ])
    func aCommonLineIsParsedAsTheRootWouldParseIt(arguments: [String]) throws {
        #expect(try parsedAlike(arguments), "\(arguments)")
    }

    @Test(arguments: [
        ["run", "--help"], ["run", "-h"], ["run", "oklah", "--version"], ["run", "--generate-completion-script", "bash"],
        ["--experimental-dump-help"], ["run", "oklah", "surplus"], ["run", "--no-such-option"], ["--state-dir", "/x", "run", "oklah"],
        ["flows"], ["help", "run"], ["pick", "help"],
    ])
    func aLineItsCommandDoesNotTakeIsLeftToTheRoot(arguments: [String]) {
        #expect(Onboard.parsedByItsCommand(arguments) == nil, "\(arguments)")
    }
}
