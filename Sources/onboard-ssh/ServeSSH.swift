import ArgumentParser
import Foundation
import DemoSessions
import Installation
import NIOCore
import SSHDemo
import Synchronization
import WebDemo

/// `onboard serve-ssh`: demos over SSH, one onboarding per connection, no root. Its own
/// executable, which `onboard serve-ssh` becomes (exec), so the interactive client links
/// no SSH or network stack; each session runs the `onboard` beside it.
@main
struct ServeSSH: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onboard serve-ssh",
        abstract: "Serve demos over SSH: anyone who connects gets their own Onboard (no password).")

    @Option(help: "Address and port to listen on, HOST:PORT (default: loopback only; 0.0.0.0:2222 for a room).")
    var listen = "127.0.0.1:2222"

    @OptionGroup var sessions: DemoSessionOptions

    @Option(
        name: .customLong("host-key"),
        help: "The server's ed25519 host key (made on first start; default $XDG_CONFIG_HOME/onboard/ssh_host_ed25519_key).")
    var hostKey: String?

    @Option(
        name: .customLong("watch-web"),
        help: "Also serve read-only watch pages of the sessions on HOST:PORT (each session's link is in its QA console, Ctrl-G).")
    var watchWeb: String?

    func validate() throws {
        guard address != nil else { throw ValidationError("--listen '\(listen)' is not HOST:PORT, e.g. 127.0.0.1:2222") }
        if let watchWeb, ListenAddress(watchWeb) == nil {
            throw ValidationError("--watch-web '\(watchWeb)' is not HOST:PORT, e.g. 127.0.0.1:8023")
        }
    }

    private var address: ListenAddress? { ListenAddress(listen) }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let keyPath = hostKey ?? ConfigFolder.path(environment: environment) + "/ssh_host_ed25519_key"
        let key: HostKey
        do {
            key = try HostKey.loadOrCreate(at: keyPath)
        } catch {
            printError("onboard serve-ssh: \(error)")
            throw ExitCode(1)
        }
        let stateFolder = sessions.stateFolder
        var settings = DemoServer.Settings(
            executable: SiblingExecutable.path("onboard"),
            arguments: sessions.sessionArguments(sharedMockFile: "ssh-shared-mock.sqlite"), stateFolder: stateFolder)
        if let address { (settings.host, settings.port) = (address.host, address.port) }
        settings.maxSessions = sessions.maxSessions
        let (shown, maxSessions) = (sessions.shown, sessions.maxSessions)
        if let watchWeb = watchWeb.flatMap(ListenAddress.init) {
            settings.watch = try Self.serveWatchPages(on: watchWeb, stateFolder: stateFolder)
        }
        do {
            try DemoServer(settings: settings, hostKey: key).run { host, port in
                // Written at once (not print's buffer): a script waits for these lines.
                FileHandle.standardOutput.write(
                    Data(
                        """
                        Onboard demo over SSH on \(host):\(port): \(shown), at most \(maxSessions) sessions.
                        Connect with:  ssh -p \(port) demo@\(ListenAddress.shown(host))
                        Host key:      \(key.fingerprint) (ED25519), kept in \(keyPath)
                        Anyone who can reach this port gets a demo session with no password: Onboard's flows, nothing else.
                        Stop with Ctrl-C (every session is hung up and saved).

                        """.utf8))
            }
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            printError("onboard serve-ssh: \(listen) is already in use (another serve-ssh?); choose another port with --listen")
            throw ExitCode(1)
        } catch {
            printError("onboard serve-ssh: cannot serve on \(listen): \(error)")
            throw ExitCode(1)
        }
        print("Stopped; every session was hung up.")
    }

    /// `--watch-web`: serve-web's watch pages for these SSH sessions, on their own port in
    /// this process; returns what the sessions register with and link to.
    static func serveWatchPages(on address: ListenAddress, stateFolder: String) throws -> DemoServer.Settings.Watch {
        let assets: XtermAssets
        do {
            assets = try XtermAssets.load()
        } catch {
            printError("onboard serve-ssh --watch-web: \(error)")
            throw ExitCode(69)
        }
        var web = WebDemoServer.Settings(executable: "", arguments: [], stateFolder: stateFolder)
        (web.host, web.port, web.watchOnly) = (address.host, address.port, true)
        let directory = WatchDirectory()
        let bound = Mutex<Int?>(nil)
        let ready = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await WebDemoServer(settings: web, assets: assets, watched: directory).run { host, port in
                    bound.withLock { $0 = port }
                    FileHandle.standardOutput.write(
                        Data(
                            "Watch pages at http://\(ListenAddress.shown(host)):\(port)/watch#…: each session's own link is in its QA console (Ctrl-G, Context and session).\n"
                                .utf8))
                    ready.signal()
                }
            } catch {
                printError("onboard serve-ssh: cannot serve watch pages on \(address.host):\(address.port): \(error)")
                Foundation.exit(1)
            }
        }
        ready.wait()
        let port = bound.withLock { $0 } ?? address.port
        let host = address.host
        return DemoServer.Settings.Watch(directory: directory) { server, token in
            // The address the SSH client reached, unless the watch pages listen elsewhere.
            let shown = host == "0.0.0.0" || host == "::" ? server : host
            return "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)/watch#\(token)"
        }
    }
}
