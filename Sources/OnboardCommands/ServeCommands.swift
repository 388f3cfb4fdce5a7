import ArgumentParser
import FoundationEssentials
import Installation
import OnboardRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `onboard serve-ssh …` becomes `onboard-ssh …`, and `onboard serve-web …` becomes
/// `onboard-web …` (the same process, by exec), so signals, exit status and `--help` are
/// the server's own, and this binary carries no SSH, web or network stack a person
/// onboarding never uses.
struct ServeSSH: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-ssh",
        abstract: "Serve demos over SSH: anyone who connects gets their own Onboard (no password).",
        helpNames: [])

    @Argument(parsing: .captureForPassthrough, help: "Options of onboard serve-ssh (see onboard serve-ssh --help).")
    var arguments: [String] = []

    func run() throws {
        try becomeSibling("onboard-ssh", saying: "onboard serve-ssh", arguments)
    }
}

struct ServeWeb: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-web",
        abstract: "Serve demos in a browser: anyone who opens the page gets their own Onboard.",
        helpNames: [])

    @Argument(parsing: .captureForPassthrough, help: "Options of onboard serve-web (see onboard serve-web --help).")
    var arguments: [String] = []

    func run() throws {
        try becomeSibling("onboard-web", saying: "onboard serve-web", arguments)
    }
}

/// Replaces this process with the executable `name` beside it; returns only on failure.
func becomeSibling(_ name: String, saying command: String, _ arguments: [String]) throws {
    let sibling = SiblingExecutable.path(name)
    let cArguments = ([sibling] + arguments).map { strdup($0) } + [nil]
    execv(sibling, cArguments)
    printError(
        "\(command): cannot start \(sibling) (\(String(cString: strerror(errno)))); it is built with onboard (swift build) and must sit beside it."
    )
    throw ExitCode(1)
}
