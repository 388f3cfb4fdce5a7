// swift-tools-version: 6.0
import PackageDescription

// Release binaries ship without DWARF (two thirds of a 110 MB `onboard`), as distributions
// strip theirs; symbols stay, so a crash's backtrace still names its functions. Debug
// builds keep everything.
let releaseWithoutDebugInfo: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--strip-debug"], .when(configuration: .release))]

let package = Package(
    name: "Onboard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "onboard", targets: ["onboard"]),
        .executable(name: "onboard-files", targets: ["onboard-files"]),
        .executable(name: "onboard-server", targets: ["onboard-server"]),
        .executable(name: "onboard-ssh", targets: ["onboard-ssh"]),
        .executable(name: "onboard-web", targets: ["onboard-web"]),
        .executable(name: "onboard-mock", targets: ["onboard-mock"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Already under Hummingbird; named for the header fields serve-web's pages set.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssh", from: "0.15.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // C: the only place that includes ncurses.h (wide-character build).
        .target(
            name: "CursesShim",
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        // C: libc's wcwidth, the column rule ncurses uses, for the pure renderer.
        .target(name: "TextWidth"),
        // Text as HTML shows it: the server's pages and the gallery escape the same way.
        .target(name: "HTMLText"),
        // Where Onboard's files and programs are (XDG state and config folders, the sibling
        // executables, the built-in flows' ids): all `onboard-ssh` needs of the client.
        .target(name: "Installation"),
        // "did you mean 'title'?" after an unknown word: flow files and the server's
        // configuration file alike.
        .target(name: "Suggestion"),
        // The declarative screen table: its types and the built-in flows, compiled. No YAML,
        // no file read: what a launch needs.
        .target(name: "ScreenTable", dependencies: ["ServiceAPI", "Installation", "CivilCalendar", "InputRules"]),
        // Flow files as people write them (YAML, Yams): the reader and its checks, and the
        // built-in flows' sources the compiled ones are generated from.
        .target(
            name: "FlowFiles",
            dependencies: ["ScreenTable", "CivilCalendar", "Suggestion", .product(name: "Yams", package: "Yams")],
            // Their text is compiled in (`BuiltinFlowTexts`): an installed binary has no
            // resource bundle beside it.
            exclude: ["BuiltinFlows"]
        ),
        // A funnel report as people read it (a table, JSON, CSV) and its window as typed
        // (`7d`): for `onboard funnel` and the server's alike.
        .target(name: "FunnelText", dependencies: ["ServiceAPI", "CivilCalendar"]),
        // Calendar dates without Foundation, for the client's date fields and the service's
        // own checks alike.
        .target(name: "CivilCalendar"),
        // QR codes (ISO/IEC 18004) as modules, for the device sign-in's page on a phone.
        .target(name: "QRCode"),
        // What people type, as the service accepts it (email, phone, trimming): one
        // definition for the client's validation and the service's checks.
        .target(name: "InputRules"),
        // Pure reducer: (state, event) -> (state, effects).
        .target(name: "FlowEngine", dependencies: ["ScreenTable", "CivilCalendar", "InputRules", "ServiceAPI"]),
        // The service's contract, shared by the client, the mock and the server: the
        // operations (`AuthService`), what they answer, and `ServiceError` with its codes.
        .target(name: "ServiceAPI"),
        // The service's behaviour: accounts, sessions, tokens, names, over a store it is
        // given (`ServiceStore`); no database library.
        .target(
            name: "OnboardService",
            dependencies: [
                "ServiceAPI", "CivilCalendar", "InputRules",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                // Counters an operator's Prometheus reads (a no-op in the embedded mock).
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            // Unicode TR39 skeletons for display names (`NameKey`): the ICU the toolchain's
            // Foundation already ships and loads, not a second copy.
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
        ),
        // The client's address behind reverse proxies (`--trusted-proxy`), for
        // onboard-server and serve-web alike.
        .target(name: "ClientAddress"),
        // C: HTTP(S) through libcurl, loaded with dlopen on the first request.
        .target(name: "CurlShim", linkerSettings: [.linkedLibrary("dl")]),
        // Blocking work on a thread of its own, without Foundation's `Thread`.
        .target(name: "OwnThread"),
        // Lines of JSON over a socket pair: the client and onboard-mock.
        .target(name: "LineChannel", dependencies: ["OwnThread"]),
        // The one protocol the runtime calls, its transports and fault injection. It links
        // no part of the service: the embedded mock is onboard-mock, another process.
        .target(name: "ServiceClient", dependencies: ["ServiceAPI", "CurlShim", "LineChannel", "OwnThread", "PtyShim"]),
        // The embedded mock: OnboardService over the state folder's SQLite file, in process
        // (tests, tools) or served to the client from onboard-mock.
        .target(
            name: "EmbeddedMock",
            dependencies: [
                "OnboardService", "SQLiteStore", "ServiceAPI", "ServiceClient", "Installation", "LineChannel",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .executableTarget(name: "onboard-mock", dependencies: ["EmbeddedMock"], linkerSettings: releaseWithoutDebugInfo),
        // The service's store in one SQLite file (GRDB): the embedded mock, a single server.
        .target(
            name: "SQLiteStore",
            dependencies: [
                "OnboardService", "ServiceAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The service's store in PostgreSQL, for several onboard-server instances.
        .target(
            name: "PostgresStore",
            dependencies: [
                "OnboardService", "ServiceAPI",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // HTTP routes around OnboardService: the remote service's behaviour is the mock's.
        .target(
            name: "OnboardServer",
            dependencies: [
                "ServiceAPI", "OnboardService", "SQLiteStore", "PostgresStore", "InputRules", "CivilCalendar", "Suggestion", "ClientAddress", "HTMLText", "FunnelText",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The social sign-in broker: the provider's discovery, keys and token
                // endpoint over HTTPS, its ID tokens checked, its settings file read.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // Metrics in Prometheus' format on a listener of their own.
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Compiled in (`CompiledOpenAPI`): an installed server has no resource bundle.
            exclude: ["openapi.yaml"]
        ),
        .executableTarget(
            name: "onboard-server",
            dependencies: [
                "OnboardServer", "OnboardService", "PostgresStore", "ServiceAPI", "Installation", "InputRules", "Suggestion", "ClientAddress", "FunnelText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseWithoutDebugInfo
        ),
        // Pure rendering to a Frame of cells; themes; key map. No ncurses.
        .target(
            name: "TerminalUI",
            dependencies: [
                "ScreenTable", "FlowEngine", "CivilCalendar", "InputRules", "TextWidth", "QRCode",
            ]
        ),
        // Theme files as people write them (YAML, Yams): the user's folder, a path, and the
        // built-in themes' sources the compiled ones are generated from.
        .target(
            name: "ThemeFiles",
            dependencies: ["TerminalUI", "Installation", .product(name: "Yams", package: "Yams")],
            // The built-in themes are compiled into TerminalUI (`CompiledThemes`); the YAML is
            // their source, read by the tests that keep the two the same.
            exclude: ["Themes"]
        ),
        // For the people who write flows and test them: the flow as a graph, JSON Schemas
        // for flow and theme files, what QA has reached of a flow and how to reach the rest.
        .target(name: "FlowAuthoring", dependencies: ["ScreenTable", "FlowEngine", "ServiceAPI", "TerminalUI", "HTMLText"]),
        // JSON Schemas for flow and theme files, from the vocabulary their readers check, so
        // an editor flags what `onboard lint` would.
        .target(name: "FileSchemas", dependencies: ["ScreenTable", "FlowFiles", "TerminalUI"]),
        // The only Swift module that talks to ncurses.
        .target(name: "CursesBackend", dependencies: ["CursesShim", "TerminalUI"]),
        // Runs a flow: event loop, effects, state files, analytics log.
        .target(
            name: "OnboardRuntime",
            dependencies: [
                "FlowEngine", "CivilCalendar", "InputRules", "ScreenTable", "ServiceAPI", "ServiceClient", "TerminalUI",
                "FlowAuthoring", "SecretShim", "PtyShim", "OwnThread", "Installation", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // C: the Secret Service through libsecret, loaded with dlopen only when used.
        .target(name: "SecretShim", linkerSettings: [.linkedLibrary("dl")]),
        // C: pseudo-terminals and spawning a session leader, for serve-ssh.
        .target(name: "PtyShim"),
        // A demo session: its own onboard on a pseudo-terminal, and the sessions running
        // (serve-ssh and serve-web alike).
        .target(
            name: "DemoSessions",
            dependencies: [
                "PtyShim", "SessionZygote", "Installation", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // A demo server's warm onboard, which forks its sessions: the server's handle and
        // the zygote's loop (no Foundation: the loop runs in onboard).
        .target(name: "SessionZygote", dependencies: ["PtyShim", "OwnThread"]),
        // `onboard serve-ssh`: an SSH server giving each connection its own onboard.
        .target(
            name: "SSHDemo",
            dependencies: [
                "DemoSessions", "SessionZygote",
                .product(name: "NIOSSH", package: "swift-nio-ssh"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // `onboard serve-web`: a page with a terminal (xterm.js) and each visitor's own
        // onboard behind it, over a WebSocket.
        .target(
            name: "WebDemo",
            dependencies: [
                "DemoSessions", "SessionZygote", "PtyShim", "ClientAddress", "OwnThread",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `onboard serve-web` (which execs it): the web server, apart from the client.
        .executableTarget(
            name: "onboard-web",
            dependencies: ["WebDemo", "DemoSessions", "Installation", "ClientAddress", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: releaseWithoutDebugInfo
        ),
        // The client's commands, on FoundationEssentials: what reads YAML comes in as
        // `FileTools`, which only onboard-files has.
        .target(
            name: "OnboardCommands",
            dependencies: [
                "OnboardRuntime", "CursesBackend", "ServiceAPI", "ServiceClient", "ScreenTable", "TerminalUI", "InputRules",
                "FlowAuthoring", "FlowEngine", "CivilCalendar", "Installation", "FunnelText", "SessionZygote",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The client as people start it: Foundation and ICU stay off its start.
        .executableTarget(name: "onboard", dependencies: ["OnboardCommands"], linkerSettings: releaseWithoutDebugInfo),
        // The same commands with the YAML readers, which onboard execs for a command that
        // reads a flow or theme file (or the files' schemas, or Graphviz).
        .executableTarget(
            name: "onboard-files",
            dependencies: [
                "OnboardCommands", "FlowFiles", "ThemeFiles", "FileSchemas", "ScreenTable", "TerminalUI", "Installation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseWithoutDebugInfo
        ),
        // `onboard serve-ssh` (which execs it): the SSH server, apart from the client.
        .executableTarget(
            name: "onboard-ssh",
            dependencies: [
                "SSHDemo", "DemoSessions", "WebDemo", "Installation",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseWithoutDebugInfo
        ),
        // Benchmarks (benchmarks/README.md): the specs' time targets through the client's
        // call path, and a bare Hummingbird route as the server's ceiling.
        .executableTarget(
            name: "onboard-bench",
            dependencies: ["OnboardRuntime", "ServiceAPI", "OnboardService", "SQLiteStore", "ServiceClient", "EmbeddedMock", "ScreenTable", "FlowEngine"],
            path: "benchmarks/Sources/onboard-bench"
        ),
        .executableTarget(
            name: "bench-hello",
            dependencies: [
                "OnboardService", "SQLiteStore", "PostgresStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "benchmarks/Sources/bench-hello"
        ),
        // For the tests only: a throwaway PostgreSQL server.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Rules for the repository itself: every Swift file formatted, every session the
        // guides quote run as written.
        .testTarget(name: "HouseRulesTests", dependencies: ["onboard", "onboard-files", "onboard-server", "onboard-mock", "TestSupport"]),
        .testTarget(name: "ScreenTableTests", dependencies: ["ScreenTable", "FlowFiles", "CivilCalendar", "Suggestion"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport"]),
        .testTarget(name: "FlowEngineTests", dependencies: ["FlowEngine", "ScreenTable", "FlowFiles", "InputRules", "TestSupport"]),
        .testTarget(
            name: "FlowAuthoringTests",
            dependencies: ["FlowAuthoring", "FileSchemas", "FlowEngine", "ScreenTable", "FlowFiles", "TestSupport", .product(name: "Yams", package: "Yams")]),
        .testTarget(
            name: "OnboardServiceTests",
            dependencies: ["InputRules", "ServiceAPI", "OnboardService", "SQLiteStore", "ServiceClient", "EmbeddedMock", "ScreenTable", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "TerminalUITests", dependencies: ["TerminalUI", "ThemeFiles", "FlowEngine", "ScreenTable", "TestSupport"], exclude: ["__Snapshots__"]),
        .testTarget(name: "OnboardRuntimeTests", dependencies: ["OnboardRuntime", "ServiceAPI", "OnboardService", "SQLiteStore", "ServiceClient", "EmbeddedMock", "FlowEngine", "ScreenTable", "FlowFiles", "Installation", "TerminalUI", "ThemeFiles", "OnboardCommands", "TestSupport"]),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "PtyShim", "TerminalUI"]),
        .testTarget(
            name: "ContractTests",
            dependencies: [
                "onboard-mock", "ServiceAPI", "ServiceClient", "EmbeddedMock", "OnboardServer", "OnboardService", "SQLiteStore", "ScreenTable", "PostgresStore", "TestSupport", "ClientAddress",
                .product(name: "Yams", package: "Yams"),
                // The schema-parity test reads SQLite's schema.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Python references the tests start: an Authlib provider and client.
            exclude: ["ThirdParty"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["onboard", "onboard-files", "onboard-server", "onboard-ssh", "onboard-web", "onboard-mock", "OnboardRuntime", "TerminalUI", "ServiceAPI", "ServiceClient", "TestSupport", "DemoSessions", "SessionZygote"],
            // Headless Chromium's walk of the sign-in pages, over WebDriver.
            exclude: ["Browser"]),
    ],
    swiftLanguageModes: [.v6]
)
