import ArgumentParser
import ClientAddress
import Foundation
import DemoSessions
import Installation
import WebDemo

/// `onboard serve-web`: demos in a browser, one onboarding per visitor. Its own
/// executable, which `onboard serve-web` becomes (exec), so the interactive client links
/// no web stack; each session runs the `onboard` beside it.
@main
struct ServeWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onboard serve-web",
        abstract: "Serve demos in a browser: anyone who opens the page gets their own Onboard.")

    @Option(help: "Address and port to listen on, HOST:PORT (default: loopback only; 0.0.0.0:8022 for a room).")
    var listen = "127.0.0.1:8022"

    @OptionGroup var sessions: DemoSessionOptions

    @Option(name: .customLong("per-address"), help: "New sessions one address may start in ten minutes.")
    var perAddress = 10

    @Option(
        name: .customLong("reconnect-grace"),
        help: "Seconds a session waits for its page to come back after the connection dropped (or the tab closed).")
    var reconnectGrace = 60

    @Option(name: .customLong("idle"), help: "Seconds a session lives with no key pressed.")
    var idle = 900

    @Option(name: .customLong("tls-cert"), help: "Serve HTTPS with this certificate chain (PEM); with --tls-key.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The certificate's private key (PEM).")
    var tlsKey: String?

    @Option(
        name: .customLong("trusted-proxy"),
        help: "An address or CIDR block (repeatable) of a reverse proxy whose X-Forwarded-For names the visitor (for --per-address).")
    var trustedProxy: [String] = []

    func validate() throws {
        guard address != nil else { throw ValidationError("--listen '\(listen)' is not HOST:PORT, e.g. 127.0.0.1:8022") }
        guard perAddress >= 1 else { throw ValidationError("--per-address must be at least 1") }
        guard reconnectGrace >= 1, idle >= 1 else { throw ValidationError("--reconnect-grace and --idle are at least 1 second") }
        if let wrong = trustedProxy.first(where: { AddressBlock($0) == nil }) {
            throw ValidationError("--trusted-proxy '\(wrong)' is not an address or CIDR block, e.g. 127.0.0.1 or 10.0.0.0/8")
        }
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
    }

    private var address: ListenAddress? { ListenAddress(listen) }

    func run() async throws {
        let assets: XtermAssets
        do {
            assets = try XtermAssets.load()
        } catch {
            printError("onboard serve-web: \(error)")
            throw ExitCode(69)
        }
        var settings = WebDemoServer.Settings(
            executable: SiblingExecutable.path("onboard"), arguments: sessions.sessionArguments(sharedMockFile: "web-shared-mock.sqlite"),
            stateFolder: sessions.stateFolder)
        if let address { (settings.host, settings.port) = (address.host, address.port) }
        settings.maxSessions = sessions.maxSessions
        settings.perAddress = perAddress
        settings.grace = .seconds(reconnectGrace)
        settings.idle = .seconds(idle)
        settings.tlsCertificate = tlsCertificate
        settings.tlsKey = tlsKey
        settings.trustedProxies = TrustedProxies(blocks: trustedProxy.compactMap(AddressBlock.init))
        let (shown, maxSessions, https) = (sessions.shown, sessions.maxSessions, tlsCertificate != nil)
        do {
            try await WebDemoServer(settings: settings, assets: assets).run { host, port in
                // Written at once (not print's buffer): a script waits for these lines.
                FileHandle.standardOutput.write(
                    Data(
                        """
                        Onboard demo in a browser on \(host):\(port): \(shown), at most \(maxSessions) sessions.
                        Open:  \(https ? "https" : "http")://\(ListenAddress.shown(host)):\(port)/
                        Anyone who can reach this port gets a demo session: Onboard's flows, nothing else.
                        Stop with Ctrl-C (every session is hung up and saved).

                        """.utf8))
            }
        } catch {
            let text = "\(error)"
            if text.contains("Address already in use") || text.contains("EADDRINUSE") || text.contains("errno: 98") {
                printError("onboard serve-web: \(listen) is already in use (another serve-web?); choose another port with --listen")
            } else {
                printError("onboard serve-web: cannot serve on \(listen): \(error)")
            }
            throw ExitCode(1)
        }
        print("Stopped; every session was hung up.")
    }
}
