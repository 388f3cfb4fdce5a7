// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Onboard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "onboard", targets: ["onboard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // C: the only place that includes ncurses.h (wide-character build).
        .target(
            name: "CursesShim",
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        // C: libc's wcwidth, the column rule ncurses uses, for the pure renderer.
        .target(name: "TextWidth"),
        // The declarative screen table: types, YAML loader, linter, built-in flows.
        .target(
            name: "ScreenTable",
            dependencies: [.product(name: "Yams", package: "Yams")],
            resources: [.copy("BuiltinFlows")]
        ),
        // Pure reducer: (state, event) -> (state, effects).
        .target(name: "FlowEngine", dependencies: ["ScreenTable"]),
        // The service's behaviour over SQLite: accounts, sessions, tokens, names.
        .target(
            name: "OnboardService",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The one protocol the runtime calls, its transports and fault injection.
        .target(name: "ServiceClient", dependencies: ["OnboardService"]),
        // Pure rendering to a Frame of cells; themes; key map. No ncurses.
        .target(
            name: "TerminalUI",
            dependencies: ["ScreenTable", "FlowEngine", "TextWidth", .product(name: "Yams", package: "Yams")],
            resources: [.copy("Themes")]
        ),
        // The only Swift module that talks to ncurses.
        .target(name: "CursesBackend", dependencies: ["CursesShim", "TerminalUI"]),
        // Runs a flow: event loop, effects, state files, analytics log.
        .target(
            name: "OnboardRuntime",
            dependencies: ["FlowEngine", "ScreenTable", "ServiceClient", "TerminalUI"]
        ),
        .executableTarget(
            name: "onboard",
            dependencies: [
                "OnboardRuntime", "CursesBackend", "ServiceClient", "ScreenTable", "TerminalUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ScreenTableTests", dependencies: ["ScreenTable"]),
        .testTarget(name: "FlowEngineTests", dependencies: ["FlowEngine", "ScreenTable"]),
        .testTarget(name: "OnboardServiceTests", dependencies: ["OnboardService", "ServiceClient", "ScreenTable"]),
        .testTarget(
            name: "TerminalUITests", dependencies: ["TerminalUI", "FlowEngine", "ScreenTable"], exclude: ["__Snapshots__"]),
        .testTarget(name: "OnboardRuntimeTests", dependencies: ["OnboardRuntime", "ServiceClient", "FlowEngine"]),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "CursesShim", "TerminalUI"]),
        .testTarget(name: "EndToEndTests", dependencies: ["onboard"]),
    ],
    swiftLanguageModes: [.v6]
)
