import EmbeddedMock
import FlowEngine
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient
import TerminalUI
import Testing

/// The QA console: its keys through the console's own reducer, and each action's
/// effect on a real run (the engine, the embedded mock, state files) in a headless
/// terminal driven by a key script.
@Suite(.serialized) struct QAConsoleTests {
    let info = QAInfo(
        flow: "oklah", screen: "privacy", screens: ["privacy", "pick_name", "home"], context: [], session: [],
        faultsOn: [.network], clockOffsetSeconds: 90_000, outbox: [], analytics: [])

    @Test func keysOpenPagesAndSayWhatToDo() {
        var console = QAConsole()
        #expect(QAConsole.opens(.control("g")) && QAConsole.opens(.function(12)))
        #expect(console.view(info).body.hasPrefix("oklah · screen privacy · clock +1d 1h · faults: network"))
        #expect(console.handle(.down, info: info) == nil)
        #expect(console.handle(.enter, info: info) == nil)
        #expect(console.page == .faults)
        #expect(console.options(info).first == "[x] network")
        #expect(console.handle(.enter, info: info) == .toggleFault(.network))
        #expect(console.handle(.escape, info: info) == nil, "Esc: back to the menu")
        #expect(console.page == nil)
        _ = console.handle(.down, info: info)
        _ = console.handle(.enter, info: info)
        #expect(console.page == .clock)
        _ = console.handle(.down, info: info)
        #expect(console.handle(.enter, info: info) == .shiftClock(seconds: 86_400))
        _ = console.handle(.escape, info: info)
        _ = console.handle(.down, info: info)
        _ = console.handle(.down, info: info)
        _ = console.handle(.enter, info: info)
        #expect(console.page == .jump)
        _ = console.handle(.down, info: info)
        _ = console.handle(.down, info: info)
        #expect(console.handle(.enter, info: info) == .jump("home"))
        #expect(console.handle(.escape, info: info) == nil)
        #expect(console.handle(.escape, info: info) == .close, "Esc on the menu closes")
        #expect(console.handle(.control("g"), info: info) == .close)
    }

    // MARK: Each action on a real run

    struct Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-qa-\(UUID().uuidString)").path
        let clock = RuntimeClock()
        let faults = FaultSwitchboard()
        let service: OnboardService
        let store: StateStore
        let flowID: String

        init(_ flowID: String) throws {
            self.flowID = flowID
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            service = try OnboardService(database: try ServiceDatabase.open(path: folder + "/mock.sqlite"), clock: clock)
            store = StateStore(stateDirectory: folder, flowID: flowID)
        }

        /// The mock's outbox, as QA reads it.
        var outbox: @Sendable () -> [OutboxEntry] {
            let path = folder + "/mock.sqlite"
            return { (try? ServiceDatabase.open(path: path).read(OnboardService.outbox(in:))) ?? [] }
        }

        /// Runs the flow until the script ends, on its own thread as the real UI thread
        /// is (service calls need the concurrency pool free); returns the frames as text.
        @discardableResult
        func play(_ script: String) async throws -> (frames: [String], failure: String?) {
            let flow = try BuiltinFlows.load(flowID)
            let mock = InProcessTransport(service: service)
            let terminal = HeadlessTerminal(width: 80, height: 24, script: try KeyScript.parse(script), waitTimeout: .seconds(20))
            let outbox = self.outbox
            let session = FlowSession.on(
                FaultInjectingService(wrapping: mock, switchboard: faults), flow: flow, store: store, clock: clock)
            let runner = FlowRunner(
                session: session, renderer: Renderer(), terminal: terminal, qa: QAControls(faults: faults, outbox: outbox))
            terminal.smsCode = { outbox().last?.code }
            nonisolated(unsafe) let loop = runner
            nonisolated(unsafe) let screen = terminal
            return await withCheckedContinuation { continuation in
                Thread {
                    _ = loop.run()
                    continuation.resume(returning: (screen.frames.map { HeadlessTerminal.plainText($0) }, screen.failure))
                }.start()
            }
        }
    }

    @Test func aFaultSwitchedOnTakesEffectOnTheNextCall() async throws {
        let run = try Run("oklah")
        let result = try await run.play(
            """
            wait:Welcome to OKLah
            <C-g>
            <Down><Enter>
            wait:[ ] network
            <Enter>
            wait:[x] network
            <Esc><Esc>
            wait:Welcome to OKLah
            <Enter>
            wait:Try Again
            """)
        #expect(result.failure == nil)
        #expect(run.faults.faults == [.network])
    }

    @Test func aClockShiftExpiresTheTokenAndItIsRenewed() async throws {
        let run = try Run("oklah")
        try await run.play("wait:Welcome to OKLah\n<Enter>\nwait:Pick your name\n<Enter>\nwait:Check in\n")
        let before = try #require(run.store.load().session)
        let result = try await run.play(
            """
            wait:Check in
            <C-g>
            <Down><Down><Enter>
            wait:+1 day
            <Down><Enter>
            wait:clock +1d
            <Esc><Up><Up><Enter>
            wait:Context and session
            wait:expires in 23h
            wait:tokens kept in a private file in
            """)
        #expect(result.failure == nil)
        let after = try #require(run.store.load().session)
        #expect(after.accessExpiresAt > before.accessExpiresAt + 86_000, "renewed against the shifted clock")
        #expect(after.refreshToken != before.refreshToken)
    }

    @Test func theOutboxShowsTheCodeJustSent() async throws {
        let run = try Run("abby")
        let result = try await run.play(
            """
            wait:Welcome to ABBY
            <Enter>
            wait:Create your account
            <Enter>
            wait:Your phone number
            <Tab>5550109999<Tab><Enter>
            wait:Enter your code
            <C-g>
            <Down><Down><Down><Enter>
            wait:sms +15550109999
            """)
        #expect(result.failure == nil)
        let code = try #require(run.outbox().last?.code)
        #expect(result.frames.last?.contains("sms +15550109999 \(code)") == true)
    }

    @Test func aJumpLandsOnTheScreenAndEscLeavesTheFlowWhereItWas() async throws {
        let run = try Run("miga")
        let result = try await run.play(
            """
            wait:The Intentional Life Starts Now
            <C-g>
            <Down><Down><Down><Down><Enter>
            wait:Jump to a screen
            <Down><Down><Down><Down><Down><Down><Down><Enter>
            wait:Step 8 of 12
            <C-g>
            wait:QA console
            <Esc>
            wait:How ready are you?
            """)
        #expect(result.failure == nil)
    }

    @Test func resetForgetsTheFlowsStateAndStartsAgain() async throws {
        let run = try Run("oklah")
        try await run.play("wait:Welcome to OKLah\n<Enter>\nwait:Pick your name\n")
        #expect(run.store.load().session != nil)
        let result = try await run.play(
            """
            wait:Pick your name
            <C-g>
            <Up><Up><Enter>
            wait:Yes, forget this flow's state
            <Enter>
            wait:Welcome to OKLah
            """)
        #expect(result.failure == nil)
        #expect(run.store.load().session == nil)
        #expect(
            !FileManager.default.fileExists(atPath: run.store.analytics.path)
                || run.store.analytics.events().allSatisfy { $0["event"] as? String != "name_selected" })
    }
}
