import ArgumentParser
import Foundation
import Hummingbird
import Installation
import Logging
import NIOCore
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
        subcommands: [Serve.self, FunnelCommand.self, CheckConfigCommand.self],
        defaultSubcommand: Serve.self)

    /// `onboard-server --help` is serve's help (the default, whose options work without
    /// its name) followed by the other subcommands, not the subcommands alone.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard [["--help"], ["-h"], ["help"]].contains(arguments) else { return await main(nil) }
        let serve = helpMessage(for: Serve.self).replacingOccurrences(
            of: "USAGE: onboard-server serve", with: "USAGE: onboard-server [serve]")
        let root = helpMessage()
        let others = root.range(of: "SUBCOMMANDS:").map { String(root[$0.lowerBound...]) } ?? ""
        print(serve.trimmingCharacters(in: .newlines) + "\n\n" + others.trimmingCharacters(in: .newlines))
    }
}

/// `onboard-server [serve]`: the service itself. Every setting can also be given by
/// `$ONBOARD_…` or in `--config`'s file; `ServeSettings` reads them in that order.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the API (the default: `onboard-server --port 8080` is `onboard-server serve --port 8080`).",
        discussion: """
            API under /api/v1 (JSON, errors as {code, message, retry_after?}); the OpenAPI
            document is served at /api/v1/openapi.yaml. SIGTERM or Ctrl-C finishes the
            requests in flight, then stops.

            Each flag can be set in the environment, as ONBOARD_ and the flag's name
            (ONBOARD_SIGN_IN_LIMIT=60; ONBOARD_DATABASE_URL for --database), or in the
            --config file, as the flag's name with underscores (sign_in_limit: 60). A flag
            wins over the environment, which wins over the file. `onboard-server
            check-config FILE` checks a file.

            Operators' guide and security: /usr/share/doc/onboard-server/ once installed,
            docs/ in the source.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "Address to listen on (default: 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one, printed on start (default: 8080).")
    var port: Int?

    @Flag(help: "Enable the QA endpoints under /api/v1/dev: outbox, reset, clock, faults.")
    var dev = false

    @Flag(
        name: .customLong("dev-on-network"),
        help: "Allow --dev on an address other than this machine's: anyone who reaches it can reset every account. Never in production.")
    var devOnNetwork = false

    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain: serve HTTPS.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key for --tls-cert.")
    var tlsKey: String?

    @Option(
        name: .customLong("metrics-address"),
        help: ArgumentHelp(
            "Where Prometheus scrapes /metrics: HOST:PORT on a listener of its own (port 0 picks a free one), or off (default: 127.0.0.1:9464).",
            discussion: "Loopback by default: the metrics say how the service is used, which is the operator's business."))
    var metricsAddress: String?

    @Option(name: .customLong("log-format"), help: "text (the default) or json: one JSON object per line, for a log collector.")
    var logFormat: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info (the default: each request), notice, warning, error or critical.")
    var logLevel: String?

    @Option(name: .customLong("bcrypt-cost"), help: "bcrypt cost for passwords, 10 to 14 (default: 10).")
    var bcryptCost: Int?

    @Option(name: .customLong("sign-in-limit"), help: "Sign-in attempts allowed per client address per minute (default: 60).")
    var signInLimit: Int?

    @Option(name: .customLong("login-failure-limit"), help: "Failed logins allowed per account per 15 minutes (default: 10).")
    var loginFailureLimit: Int?

    @Option(name: .customLong("sms-limit"), help: "SMS codes sent per client address per hour (default: 10).")
    var smsLimit: Int?

    @Option(
        name: .customLong("invite-limit"), help: "Invite redemptions tried per client address, and per account, per hour (default: 20).")
    var inviteLimit: Int?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "An address or CIDR block (repeatable) of a proxy in front: its X-Forwarded-For names the client.",
            discussion: "Without it, X-Forwarded-For is ignored and every client behind a proxy shares the proxy's rate limits."))
    var trustedProxy: [String] = []

    @Option(
        name: .customLong("identity-providers"),
        help: ArgumentHelp(
            "A YAML file of the providers social sign-in goes through (apple, google, facebook): issuer, client_id, client_secret_env or client_secret_file, scopes.",
            discussion:
                "In the --config file, identity_providers is this file's path or the same table in place. Without one, social sign-in is off; with --dev and none, all three go through the development provider at /dev-idp."
        ))
    var identityProviders: String?

    @Option(
        name: .customLong("admin-token-file"),
        help: ArgumentHelp(
            "A file whose first line is the operator's token for /api/v1/admin/funnel (default: $ONBOARD_ADMIN_TOKEN).",
            discussion: "At least 32 characters (openssl rand -hex 32). Without one, the reports answer no one."))
    var adminTokenFile: String?

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The address people reach this server at, as https://onboard.example.org: the device page, its QR code and the providers' return address are built from it, never from a request's Host.",
            discussion: "With one, a request naming another host (not this one's, nor this machine's own addresses) is answered 421."))
    var publicURL: String?

    @Option(name: .customLong("events-limit"), help: "Analytics batches taken per client address per minute (default: 600).")
    var eventsLimit: Int?

    @Option(name: .customLong("events-retention"), help: "How long analytics events are kept: 90d (the default), 30d, 12h.")
    var eventsRetention: String?

    func run() async throws {
        let settings: ServeSettings
        do {
            settings = try ServeSettings(self, environment: ProcessInfo.processInfo.environment)
        } catch {
            // The same lines `check-config` prints, and nothing else: each names its place.
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(64)  // EX_USAGE
        }
        var configuration = settings.configuration
        if let (metricsHost, metricsPort) = settings.metricsAddress {
            configuration.metrics = (metricsHost, metricsPort, ServerMetrics.bootstrap(version: OnboardVersion.current))
        }
        let scheme = configuration.tlsCertificate == nil ? "http" : "https"
        let host = configuration.host
        let devNote = configuration.dev ? " (dev)" : ""
        if configuration.dev, !Loopback.contains(host) {
            FileHandle.standardError.write(
                Data(
                    "onboard-server: warning: --dev on \(host): anyone who reaches this address can reset every account, read every code and sign in as anyone.\n"
                        .utf8))
        }
        if settings.jsonLogs { LoggingSystem.bootstrap { JSONLogHandler(label: $0) } }
        var logger = Logger(label: "onboard-server")
        logger.logLevel = settings.logLevel
        let announce = StartupLines(json: settings.jsonLogs)
        let store = configuration.postgres.map { "PostgreSQL \($0)" } ?? "SQLite \(configuration.databasePath)"
        announce("onboard-server store: \(store) (\(settings.storeOrigin))")
        do {
            let metricsHost = configuration.metrics?.host ?? ""
            let application = try await OnboardServer.application(
                configuration, logger: logger,
                onReady: { port in
                    // Tests and scripts read this line for the port.
                    announce("onboard-server listening on \(scheme)://\(host):\(port)\(devNote)", ["port": port])
                },
                onMetricsReady: { port in
                    announce("onboard-server metrics on http://\(metricsHost):\(port)/metrics", ["port": port])
                })
            try await application.runService()
        } catch let error as DatabaseUnavailable {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(69)  // EX_UNAVAILABLE
        } catch let error as IOError where error.errnoCode == EADDRINUSE || error.errnoCode == EADDRNOTAVAIL || error.errnoCode == EACCES {
            let why =
                error.errnoCode == EADDRINUSE
                ? "something else is listening there" : String(cString: strerror(error.errnoCode)).lowercased()
            FileHandle.standardError.write(
                Data(
                    "onboard-server: cannot listen on \(host):\(configuration.port): \(why); give --port another port or --host another address\n"
                        .utf8))
            throw ExitCode(69)
        }
    }
}

/// What `serve` says on standard output as it starts (its store, where it listens), which
/// scripts read; with `--log-format json` each is a JSON object, as every log line is.
struct StartupLines: Sendable {
    let json: Bool

    func callAsFunction(_ message: String, _ fields: [String: any Sendable] = [:]) {
        let line =
            json
            ? JSONLogHandler.line(level: .notice, label: "onboard-server", message: message, fields: fields) : Data((message + "\n").utf8)
        FileHandle.standardOutput.write(line)
    }
}

/// Where the service's data is (a SQLite file, or a PostgreSQL database several instances
/// share), and the configuration file the rest may come from. The server and `funnel` take
/// the same flags.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server's configuration file (YAML): a key for each of serve's flags, as sign_in_limit: 60 for --sign-in-limit 60.",
            discussion: "Flags win over the environment ($ONBOARD_SIGN_IN_LIMIT), which wins over the file.", valueName: "file"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "SQLite database file (default: onboard-server.sqlite; serve creates it).",
            discussion:
                "--db and --database are one setting: whichever is given by the strongest layer (flag, environment, file) names the store.",
            valueName: "file"))
    var db: String?

    @Option(
        help: ArgumentHelp(
            "PostgreSQL database shared by several instances, in place of --db (default: $ONBOARD_DATABASE_URL).",
            discussion: """
                postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, with ?sslmode=require|prefer|disable and &sslrootcert=FILE. \
                A password given here is visible to every local user in `ps`: put it in $ONBOARD_DATABASE_URL or the config \
                file (mode 0600) instead.
                """,
            valueName: "url"))
    var database: String?

    /// The layers every setting is read from: these flags, the environment, the file.
    func layers(environment: [String: String]) throws(ConfigurationFile.Problems) -> SettingLayers {
        let file = try config.map { path throws(ConfigurationFile.Problems) in
            try ConfigurationFile.load(path, known: ServeSettings.names.map(\.key))
        }
        return SettingLayers(file: file, environment: environment)
    }

    /// The store: one setting spelled two ways, `db` (a SQLite file) or `database` (a
    /// PostgreSQL address). The strongest layer that gives either decides (a flag, then
    /// the environment, then the file); one layer giving both is a problem, as it names
    /// two stores. `origin` says where the choice came from, for the start-up line.
    func configuration(_ layers: inout SettingLayers) -> (configuration: ServerConfiguration, origin: String) {
        let file = layers.path(ServeSettings.db, flag: db), url = layers.text(ServeSettings.database, flag: database)
        var configuration = ServerConfiguration(databasePath: "onboard-server.sqlite")
        let given = [file.map { (setting: $0, isPostgres: false) }, url.map { (setting: $0, isPostgres: true) }].compactMap(\.self)
            .sorted { $0.setting.source < $1.setting.source }
        if given.count == 2 {
            guard given[0].setting.source != given[1].setting.source else {
                layers.problem("and \(given[1].setting.place) name two stores; give one of them", at: given[0].setting.place)
                return (configuration, "")
            }
            layers.overrule(given[1].setting.place, by: given[0].setting.place)
        }
        guard let (store, isPostgres) = given.first else { return (configuration, "the default") }
        guard isPostgres else {
            configuration.databasePath = store.value
            return (configuration, "from " + store.place)
        }
        do {
            configuration.postgres = try PostgresLocation(url: store.value)
        } catch {
            layers.problem("\(error)", at: store.place + ":")
        }
        // A password written in the file: the file is a secret file then (as ssh refuses
        // a private key others can read).
        if configuration.postgres?.password != nil, let path = config, store.source == .file {
            do { _ = try SecretFile.read(path) } catch {
                layers.problem("holds the database's password, but \(error)", at: store.place + ":")
            }
        }
        return (configuration, "from " + store.place)
    }
}
