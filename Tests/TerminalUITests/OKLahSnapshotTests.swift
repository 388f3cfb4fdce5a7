import FlowEngine
import ScreenTable
import TerminalUI
import Testing

/// Every OKLah screen as a person would read it, at 80x24 and at 40x12.
@Suite struct OKLahSnapshotTests {
    let engine = FlowEngine(flow: try! BuiltinFlows.load("oklah"))
    let renderer = Renderer(glyphs: .unicode)

    init() {
        TextMetrics.prepareLocale()
    }

    static let sizes = [(80, 24), (40, 12)]

    func states() -> [(String, FlowState)] {
        var result: [(String, FlowState)] = []
        var state = FlowState()
        _ = engine.reduce(&state, .launched(Launch(session: nil, progress: nil, placeholderUserID: "p")), now: 0)
        result.append(("privacy", state))
        _ = engine.reduce(&state, .intent(.activate), now: 0)
        result.append(("creating", state))
        var failed = state
        _ = engine.reduce(
            &failed, .callFinished(id: failed.calls.userCall!.id, result: .failure(ServiceFailure(code: "network", message: "down"))),
            now: 0)
        result.append(("failed", failed))
        let session = Session(
            userID: "u_1", accessToken: "a", accessExpiresAt: 100_000, refreshToken: "r", refreshExpiresAt: nil, isAnonymous: true,
            createdAt: 0, lastAuthenticated: 0)
        _ = engine.reduce(
            &state,
            .callFinished(
                id: state.calls.userCall!.id,
                result: .success(
                    CallOutput(session: session, values: ["name_options": .list(["Sunny Otter", "Brave Spark", "Kind Meadow"])]))), now: 0)
        result.append(("pick_name", state))
        _ = engine.reduce(&state, .intent(.focusNext), now: 0)
        result.append(("pick_name_second", state))
        _ = engine.reduce(&state, .intent(.activate), now: 0)
        result.append(("saving_name", state))
        let effects = engine.reduce(
            &state,
            .callFinished(id: state.calls.userCall!.id, result: .success(CallOutput(values: ["display_name": .text("Brave Spark")]))),
            now: 0)
        let motivation = effects.compactMap { if case .call(let request) = $0 { request.id } else { nil } }.first!
        result.append(("home_loading", state))
        _ = engine.reduce(
            &state,
            .callFinished(
                id: motivation, result: .success(CallOutput(values: ["motivation": .text("Little by little, a little becomes a lot.")]))),
            now: 0)
        result.append(("home", state))
        _ = engine.reduce(&state, .intent(.activate), now: 0)
        result.append(("home_check_in", state))
        var renewing = FlowState()
        var expired = session
        expired.accessExpiresAt = 0
        _ = engine.reduce(&renewing, .launched(Launch(session: expired, progress: nil, placeholderUserID: "p")), now: 1000)
        result.append(("renewing", renewing))
        return result
    }

    @Test(arguments: sizes.map { "\($0.0)x\($0.1)" })
    func everyScreen(size: String) {
        let (width, height) = Self.sizes.first { "\($0.0)x\($0.1)" == size }!
        for (name, state) in states() {
            let frame = renderer.render(engine.view(of: state), width: width, height: height)
            assertSnapshot(frame, named: "oklah-\(name)-\(size)")
        }
    }

    @Test func asciiGlyphsWhenTheLocaleIsNotUTF8() {
        let (_, state) = states()[0]
        let frame = Renderer(glyphs: .plain).render(engine.view(of: state), width: 80, height: 24)
        assertSnapshot(frame, named: "oklah-privacy-ascii-80x24")
        #expect(frame.lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
    }

    @Test func theStartButtonIsTheOnlyActionAndIsFocused() {
        let (_, state) = states()[0]
        let view = engine.view(of: state)
        #expect(view.buttons.map(\.label) == ["Start"])
        #expect(view.buttons.first?.focused == true)
        #expect(view.fields.isEmpty)
        #expect(view.bullets.count <= 3)
    }

    @Test func belowTheMinimumOnlyTooSmallIsShown() {
        let (_, state) = states()[0]
        let frame = renderer.render(engine.view(of: state), width: 10, height: 5)
        assertSnapshot(frame, named: "too-small-10x5")
        #expect(frame.text.contains("Terminal"))
        #expect(!frame.text.contains("Start"))
    }

    @Test func theHelpLineFollowsTheScreen() {
        let all = Dictionary(uniqueKeysWithValues: states())
        func help(_ name: String) -> String { KeyMap.helpLine(for: engine.view(of: all[name]!), ascii: false) }
        #expect(help("privacy") == "Enter start · Ctrl-Z suspend · Ctrl-C quit")
        #expect(help("pick_name") == "↑/↓ choose · Enter select · Ctrl-Z suspend · Ctrl-C quit")
        #expect(help("creating") == "Ctrl-Z suspend · Ctrl-C quit", "while waiting: what works while waiting (issue 32)")
    }
}
