import ArgumentParser
import Foundation
import Installation
import OnboardRuntime

/// `onboard serve-ssh …` becomes `onboard-ssh …` (the same process, by exec), so signals,
/// exit status and `--help` are the SSH server's own, and this binary carries no SSH or
/// network stack a person onboarding never uses.
struct ServeSSH: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-ssh",
        abstract: "Serve demos over SSH: anyone who connects gets their own Onboard (no password).",
        helpNames: [])

    @Argument(parsing: .captureForPassthrough, help: "Options of onboard serve-ssh (see onboard serve-ssh --help).")
    var arguments: [String] = []

    func run() throws {
        let sibling = SiblingExecutable.path("onboard-ssh")
        let argv = [sibling] + arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        execv(sibling, cArguments)
        printError("onboard serve-ssh: cannot start \(sibling) (\(String(cString: strerror(errno)))); it is built with onboard (swift build) and must sit beside it.")
        throw ExitCode(1)
    }
}
