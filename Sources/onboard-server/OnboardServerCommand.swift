import ArgumentParser
import Foundation
import Hummingbird
import Installation
import Logging
import OnboardServer
import OnboardService
import PostgresStore
import ServiceAPI

@main
struct OnboardServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onboard-server",
        abstract: "The Onboard auth service over HTTP(S): the same behaviour as the embedded mock.",
        version: OnboardVersion.full,
        subcommands: [Serve.self, FunnelCommand.self],
        defaultSubcommand: Serve.self)
}

/// `onboard-server [serve]`: the service itself.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the API (the default: `onboard-server --port 8080` is `onboard-server serve --port 8080`).",
        discussion: """
            API under /api/v1 (JSON, errors as {code, message, retry_after?}); the OpenAPI
            document is served at /api/v1/openapi.yaml. SIGTERM or Ctrl-C finishes the
            requests in flight, then stops.
            """)

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (printed on start).")
    var port = 8080

    @OptionGroup var store: StoreOptions

    @Flag(help: "Enable the QA endpoints under /api/v1/dev: outbox, reset, clock, faults.")
    var dev = false

    @Flag(name: .customLong("dev-on-network"), help: "Allow --dev on an address other than this machine's: anyone who reaches it can reset every account. Never in production.")
    var devOnNetwork = false

    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain: serve HTTPS.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key for --tls-cert.")
    var tlsKey: String?

    @Option(name: .customLong("metrics-address"), help: ArgumentHelp(
        "Where Prometheus scrapes /metrics: HOST:PORT on a listener of its own (port 0 picks a free one), or off.",
        discussion: "Loopback by default: the metrics say how the service is used, which is the operator's business."))
    var metricsAddress = "127.0.0.1:9464"

    @Option(name: .customLong("log-format"), help: "text (the default) or json: one JSON object per line, for a log collector.")
    var logFormat = "text"

    @Option(name: .customLong("log-level"), help: "trace, debug, info (each request), notice, warning or error.")
    var logLevel = "info"

    @Option(name: .customLong("bcrypt-cost"), help: "bcrypt cost for passwords (10 to 14).")
    var bcryptCost = 10

    @Option(name: .customLong("sign-in-limit"), help: "Sign-in attempts allowed per client address per minute.")
    var signInLimit = 60

    @Option(name: .customLong("login-failure-limit"), help: "Failed logins allowed per account per 15 minutes.")
    var loginFailureLimit = 10

    @Option(name: .customLong("sms-limit"), help: "SMS codes sent per client address per hour.")
    var smsLimit = 10

    @Option(name: .customLong("invite-limit"), help: "Invite redemptions tried per client address, and per account, per hour.")
    var inviteLimit = 20

    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(
        "An address or CIDR block (repeatable) of a proxy in front: its X-Forwarded-For names the client.",
        discussion: "Without it, X-Forwarded-For is ignored and every client behind a proxy shares the proxy's rate limits."))
    var trustedProxy: [String] = []

    @Option(name: .customLong("identity-providers"), help: ArgumentHelp(
        "A YAML file of the providers social sign-in goes through (apple, google, facebook): issuer, client_id, client_secret_env or client_secret_file, scopes.",
        discussion: "Without it, social sign-in is off; with --dev and none, all three go through the development provider at /dev-idp."))
    var identityProviders: String?

    @Option(name: .customLong("admin-token-file"), help: ArgumentHelp(
        "A file whose first line is the operator's token for /api/v1/admin/funnel (default: $ONBOARD_ADMIN_TOKEN).",
        discussion: "At least 32 characters (openssl rand -hex 32). Without one, the reports answer no one."))
    var adminTokenFile: String?

    @Option(name: .customLong("events-limit"), help: "Analytics batches taken per client address per minute.")
    var eventsLimit = 600

    @Option(name: .customLong("events-retention"), help: "How long analytics events are kept: 90d (the default), 30d, 12h.")
    var eventsRetention = "90d"

    func validate() throws {
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        if !(10...14).contains(bcryptCost) { throw ValidationError("--bcrypt-cost must be between 10 and 14") }
        guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format: text or json") }
        if metricsAddress != "off", Self.hostAndPort(metricsAddress) == nil {
            throw ValidationError("--metrics-address '\(metricsAddress)' is not HOST:PORT like 127.0.0.1:9464, or off")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level: one of trace, debug, info, notice, warning, error")
        }
        if dev, !Loopback.contains(host), !devOnNetwork {
            throw ValidationError(
                "--dev on \(host) would open /api/v1/dev (reset, clock, outbox) and the mock identity provider to the network; listen on 127.0.0.1, or add --dev-on-network if that is what you mean")
        }
        for block in trustedProxy where AddressBlock(block) == nil {
            throw ValidationError("--trusted-proxy '\(block)' is not an address or CIDR block like 127.0.0.1 or 10.0.0.0/8")
        }
        guard let retention = Funnel.milliseconds(eventsRetention), retention >= 3_600_000 else {
            throw ValidationError("--events-retention '\(eventsRetention)' is not a duration of an hour or more like 90d, 30d or 12h")
        }
        for (name, value) in [("--sign-in-limit", signInLimit), ("--login-failure-limit", loginFailureLimit), ("--sms-limit", smsLimit), ("--invite-limit", inviteLimit), ("--events-limit", eventsLimit)] where value < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
    }

    func run() async throws {
        var configuration = try store.configuration()
        configuration.host = host
        configuration.port = port
        configuration.dev = dev
        configuration.tlsCertificate = tlsCertificate
        configuration.tlsKey = tlsKey
        configuration.trustedProxies = trustedProxy.compactMap(AddressBlock.init)
        if let identityProviders {
            do {
                configuration.identityProviders = try IdentityProvidersFile.load(identityProviders)
            } catch {
                throw ValidationError("--identity-providers \(error)")
            }
        }
        do {
            configuration.adminToken = try AdminToken.load(file: adminTokenFile, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError("--admin-token-file: \(error)")
        }
        configuration.settings.eventsRetention = (Funnel.milliseconds(eventsRetention) ?? 0) / 1000
        configuration.settings.bcryptCost = bcryptCost
        configuration.settings.signInPerAddress = RateLimit(limit: signInLimit, window: 60)
        configuration.settings.loginFailuresPerAccount = RateLimit(limit: loginFailureLimit, window: 900)
        configuration.settings.smsPerAddress = RateLimit(limit: smsLimit, window: 3600)
        configuration.settings.invitesPerAddress = RateLimit(limit: inviteLimit, window: 3600)
        configuration.settings.eventBatchesPerAddress = RateLimit(limit: eventsLimit, window: 60)
        if let (metricsHost, metricsPort) = Self.hostAndPort(metricsAddress) {
            configuration.metrics = (metricsHost, metricsPort, ServerMetrics.bootstrap(version: OnboardVersion.current))
        }
        let scheme = tlsCertificate == nil ? "http" : "https"
        let host = self.host
        let devNote = dev ? " (dev)" : ""
        if dev, !Loopback.contains(host) {
            FileHandle.standardError.write(Data("onboard-server: warning: --dev on \(host): anyone who reaches this address can reset every account, read every code and sign in as anyone.\n".utf8))
        }
        if logFormat == "json" { LoggingSystem.bootstrap { JSONLogHandler(label: $0) } }
        var logger = Logger(label: "onboard-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        do {
            let metricsHost = configuration.metrics?.host ?? ""
            let application = try await OnboardServer.application(
                configuration, logger: logger,
                onReady: { port in
                    // Tests and scripts read this line for the port.
                    FileHandle.standardOutput.write(Data("onboard-server listening on \(scheme)://\(host):\(port)\(devNote)\n".utf8))
                },
                onMetricsReady: { port in
                    FileHandle.standardOutput.write(Data("onboard-server metrics on http://\(metricsHost):\(port)/metrics\n".utf8))
                })
            try await application.runService()
        } catch let error as DatabaseUnavailable {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(69) // EX_UNAVAILABLE
        }
    }
}

/// Where the service's data is: a SQLite file, or a PostgreSQL database several instances
/// share. The server and `funnel` take the same flags.
struct StoreOptions: ParsableArguments {
    @Option(help: "SQLite database file (created if missing).")
    var db = "onboard-server.sqlite"

    @Option(help: ArgumentHelp(
        "PostgreSQL database shared by several instances, in place of --db (default: $ONBOARD_DATABASE_URL).",
        discussion: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, with ?sslmode=require|prefer|disable and &sslrootcert=FILE.",
        valueName: "url"))
    var database: String?

    /// The database URL given, or the environment's.
    var databaseURL: String? {
        database ?? ProcessInfo.processInfo.environment["ONBOARD_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func configuration() throws -> ServerConfiguration {
        var configuration = ServerConfiguration(databasePath: db)
        if let url = databaseURL {
            do {
                configuration.postgres = try PostgresLocation(url: url)
            } catch {
                throw ValidationError("--database: \(error)")
            }
        }
        return configuration
    }
}

extension Serve {
    /// `HOST:PORT` (`[::1]:9464` for IPv6); nil for `off` or anything else.
    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard text != "off", let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else { return nil }
        let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host.isEmpty ? nil : (host, port)
    }
}
