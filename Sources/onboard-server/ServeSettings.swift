import FunnelText
import ClientAddress
import ArgumentParser
import Foundation
import InputRules
import Logging
import OnboardServer
import OnboardService
import PostgresStore
import ServiceAPI

/// The settings `serve` runs with: each from its flag, else `$ONBOARD_…`, else the `--config`
/// file, else its default; every value checked, and every problem said where it was given.
/// `check-config` reads a file through the same code.
struct ServeSettings {
    var configuration: ServerConfiguration
    var metricsAddress: (host: String, port: Int)?
    var jsonLogs: Bool
    var logLevel: Logger.Level
    /// Environment variables used in place of the file's values.
    var overrides: [String]
    /// Where the store was chosen, as the start-up line says it: `from --db`,
    /// `from $ONBOARD_DATABASE_URL`, `from FILE:2:11: database`, `the default`.
    var storeOrigin: String

    static let db = SettingName("db"), database = SettingName("database", variable: "ONBOARD_DATABASE_URL")
    static let host = SettingName("host"), port = SettingName("port"), dev = SettingName("dev"),
        devOnNetwork = SettingName("dev_on_network")
    static let tlsCert = SettingName("tls_cert"), tlsKey = SettingName("tls_key"), metricsAddress = SettingName("metrics_address")
    static let logFormat = SettingName("log_format"), logLevel = SettingName("log_level"), bcryptCost = SettingName("bcrypt_cost")
    static let signInLimit = SettingName("sign_in_limit"), loginFailureLimit = SettingName("login_failure_limit")
    static let smsLimit = SettingName("sms_limit"), inviteLimit = SettingName("invite_limit"), eventsLimit = SettingName("events_limit")
    static let trustedProxy = SettingName("trusted_proxy"), identityProviders = SettingName("identity_providers")
    static let adminTokenFile = SettingName("admin_token_file"), eventsRetention = SettingName("events_retention")
    static let publicURL = SettingName("public_url")

    /// Every key the configuration file may hold: one for each of `serve`'s flags.
    static let names = [
        db, database, host, port, dev, devOnNetwork, tlsCert, tlsKey, metricsAddress, logFormat, logLevel, bcryptCost, signInLimit,
        loginFailureLimit, smsLimit, inviteLimit, eventsLimit, trustedProxy, identityProviders, adminTokenFile, eventsRetention, publicURL,
    ]

    init(_ flags: Serve, environment: [String: String]) throws(ConfigurationFile.Problems) {
        var layers = try flags.store.layers(environment: environment)
        var (configuration, storeOrigin) = flags.store.configuration(&layers)
        configuration.host = layers.text(Self.host, flag: flags.host)?.value ?? "127.0.0.1"
        configuration.port = layers.number(Self.port, flag: flags.port, in: 0...65535) ?? 8080
        let dev = layers.switched(Self.dev, flag: flags.dev)
        configuration.dev = dev?.value ?? false
        if let dev, dev.value, !Loopback.contains(configuration.host), !layers.isOn(Self.devOnNetwork, flag: flags.devOnNetwork) {
            // Said where dev was turned on, and the fix in the same place's words.
            let fix =
                dev.source == .file
                ? "dev_on_network: true" : dev.source == .environment ? "$ONBOARD_DEV_ON_NETWORK=true" : "--dev-on-network"
            layers.problem(
                "would open /api/v1/dev (reset, clock, outbox) and the mock identity provider to the network on \(configuration.host); listen on 127.0.0.1, or add \(fix) if that is what you mean",
                at: dev.place)
        }
        Self.readTLS(&configuration, flags, &layers)

        let metrics = layers.text(Self.metricsAddress, flag: flags.metricsAddress)
        metricsAddress = metrics == nil ? ("127.0.0.1", 9464) : metrics.flatMap { Self.hostAndPort($0.value) }
        if let metrics, metrics.value != "off", metricsAddress == nil {
            layers.problem("'\(metrics.value)' is not HOST:PORT like 127.0.0.1:9464, or off", at: metrics.place + ":")
        }
        let format = layers.text(Self.logFormat, flag: flags.logFormat)
        jsonLogs = format?.value == "json"
        if let format, !["text", "json"].contains(format.value) {
            layers.problem("must be text or json, not '\(format.value)'", at: format.place)
        }
        let level = layers.text(Self.logLevel, flag: flags.logLevel)
        logLevel = level.flatMap { Logger.Level(rawValue: $0.value) } ?? .info
        if let level, Logger.Level(rawValue: level.value) == nil {
            layers.problem("must be one of trace, debug, info, notice, warning, error, critical; not '\(level.value)'", at: level.place)
        }

        Self.readLimits(&configuration.settings, flags, &layers)
        configuration.trustedProxies = []
        for block in layers.list(Self.trustedProxy, flag: flags.trustedProxy).map({ given in given.value.map { ($0, given.place) } }) ?? []
        {
            guard let parsed = AddressBlock(block.0) else {
                layers.problem("'\(block.0)' is not an address or CIDR block like 127.0.0.1 or 10.0.0.0/8", at: block.1 + ":")
                continue
            }
            configuration.trustedProxies.append(parsed)
        }
        configuration.identityProviders = Self.readIdentityProviders(flags, environment, &layers)
        configuration.adminToken = Self.readAdminToken(flags, environment, &layers)
        if let given = layers.text(Self.publicURL, flag: flags.publicURL) {
            if let url = PublicAddress(given.value) {
                configuration.publicAddress = url
            } else {
                layers.problem(
                    "must be an address like https://onboard.example.org (a scheme and a host, no path), not '\(given.value)'",
                    at: given.place)
            }
        }

        guard layers.problems.isEmpty else { throw ConfigurationFile.Problems(lines: layers.problems) }
        self.configuration = configuration
        self.storeOrigin = storeOrigin
        overrides = layers.overrides
    }

    /// HTTPS: the certificate and its key go together, and both must be readable.
    private static func readTLS(_ configuration: inout ServerConfiguration, _ flags: Serve, _ layers: inout SettingLayers) {
        let certificate = layers.path(tlsCert, flag: flags.tlsCertificate), key = layers.path(tlsKey, flag: flags.tlsKey)
        if (certificate == nil) != (key == nil) {
            let missing = certificate == nil ? tlsCert : tlsKey
            layers.problem("needs \(missing.key) too (\(missing.flag))", at: (certificate ?? key)?.place ?? "--tls-cert")
        }
        for file in [certificate, key].compactMap(\.self) where !FileManager.default.isReadableFile(atPath: file.value) {
            layers.problem("'\(file.value)' cannot be read", at: file.place + ":")
        }
        configuration.tlsCertificate = certificate?.value
        configuration.tlsKey = key?.value
    }

    /// The cost of a password and the rate limits.
    private static func readLimits(_ settings: inout ServiceSettings, _ flags: Serve, _ layers: inout SettingLayers) {
        settings.bcryptCost = layers.number(bcryptCost, flag: flags.bcryptCost, in: 10...14) ?? 10
        let atLeastOne = 1...Int.max
        settings.signInPerAddress = RateLimit(limit: layers.number(signInLimit, flag: flags.signInLimit, in: atLeastOne) ?? 60, window: 60)
        settings.loginFailuresPerAccount = RateLimit(
            limit: layers.number(loginFailureLimit, flag: flags.loginFailureLimit, in: atLeastOne) ?? 10, window: 900)
        settings.smsPerAddress = RateLimit(limit: layers.number(smsLimit, flag: flags.smsLimit, in: atLeastOne) ?? 10, window: 3600)
        settings.invitesPerAddress = RateLimit(
            limit: layers.number(inviteLimit, flag: flags.inviteLimit, in: atLeastOne) ?? 20, window: 3600)
        settings.eventBatchesPerAddress = RateLimit(
            limit: layers.number(eventsLimit, flag: flags.eventsLimit, in: atLeastOne) ?? 600, window: 60)
        let retention = layers.text(eventsRetention, flag: flags.eventsRetention)
        let milliseconds = FunnelText.milliseconds(retention?.value ?? "90d") ?? 0
        if let retention, milliseconds < 3_600_000 {
            layers.problem("'\(retention.value)' is not a duration of an hour or more like 90d, 30d or 12h", at: retention.place + ":")
        }
        settings.eventsRetention = milliseconds / 1000
    }

    /// Social sign-in's providers: a file of them, or (in the configuration file) the same
    /// table in place.
    private static func readIdentityProviders(
        _ flags: Serve, _ environment: [String: String], _ layers: inout SettingLayers
    )
        -> [String: IdentityProvider]
    {
        let table = layers.table(identityProviders, flag: flags.identityProviders)
        let file = table == nil ? layers.path(identityProviders, flag: flags.identityProviders) : nil
        do {
            if let table, let path = layers.filePath {
                return try IdentityProvidersFile.providers(
                    table.value, file: path, within: "identity_providers: ", environment: environment)
            }
            if let file { return try IdentityProvidersFile.load(file.value, environment: environment) }
        } catch {
            // A table's problems say their place; a file's say the file, after the setting.
            for line in error.lines { layers.problem(line, at: file.map { $0.place + ":" } ?? "") }
        }
        return [:]
    }

    /// The operator's token: from `--admin-token-file`, else `$ONBOARD_ADMIN_TOKEN` (the token
    /// itself) or `$ONBOARD_ADMIN_TOKEN_FILE`, else the file's `admin_token_file`.
    private static func readAdminToken(_ flags: Serve, _ environment: [String: String], _ layers: inout SettingLayers) -> String? {
        var file = layers.path(adminTokenFile, flag: flags.adminTokenFile)
        if file?.source == .file, !(environment["ONBOARD_ADMIN_TOKEN"]?.isEmpty ?? true) { file = nil }
        do {
            return try AdminToken.load(file: file?.value, environment: environment)
        } catch {
            layers.problem("\(error)", at: (file?.place ?? "$ONBOARD_ADMIN_TOKEN") + ":")
            return nil
        }
    }

    /// `HOST:PORT` (`[::1]:9464` for IPv6); nil for `off` or anything else.
    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard text != "off", let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host.isEmpty ? nil : (host, port)
    }
}
