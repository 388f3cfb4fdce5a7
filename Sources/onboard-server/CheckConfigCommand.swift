import ArgumentParser
import Foundation
import OnboardServer

/// `onboard-server check-config FILE`: the file read as `serve --config FILE` would read it,
/// every problem said with its line and column, before a restart finds them.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file: each problem as FILE:LINE:COLUMN, exit status 1 if there is any.",
        discussion: """
            Reads the file as `onboard-server --config FILE` would, with this shell's
            environment (a $ONBOARD_… variable wins over the file's value, and is named):
            every value checked, the files it names read (TLS, identity providers, the
            admin token). The database is not connected to.
            """)

    @Argument(help: "The configuration file (YAML).", completion: .file())
    var file: String

    func run() throws {
        do {
            let serve = try Serve.parse(["--config", file])
            let settings = try ServeSettings(serve, environment: ProcessInfo.processInfo.environment)
            for line in settings.overrides { print("note: \(line)") }
            print("\(file): ok")
        } catch let problems as ConfigurationFile.Problems {
            FileHandle.standardError.write(Data((problems.description + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
