import FlowEngine
import ScreenTable
import TerminalUI
import Testing

/// Every screen of every built-in flow, as a person reads it, at 80x24, 60x20 and 40x12, with
/// typical context filled in. A change to a flow file or the renderer shows up here.
@Suite struct EveryScreenSnapshotTests {
    init() {
        TextMetrics.prepareLocale()
    }

    static let sample: [String: Value] = [
        "server_url": .text("mock://local"), "name": .text("Jo"), "email": .text("jo@example.org"),
        "password": .text("long enough"), "invite_code": .text("babybasics://invite?code=3f9a"),
        "child_name": .text("Ray"), "shared_by": .text("Jo"), "children": .list(["Ray (born 2026-10-01)"]),
        "baby_name": .text("Ray"), "birth_date": .text("2026-10-01"), "invite_code_created": .text("3f9a1c"),
        "invite_link": .text("babybasics://invite?code=3f9a1c"), "invite_child": .text("Ray"),
        "rucks": .list(["5.5 km in 60 min", "8.0 km in 95 min"]), "account_status": .text("Guest"),
        "username": .text("RuckWarrior"), "distance_km": .text("5.5"), "duration_min": .text("60"),
        "name_options": .list(["Sunny Otter", "Brave Spark", "Kind Meadow"]), "display_name": .text("Brave Spark"),
        "motivation": .text("Progress, not perfection."), "error_code": .text("network"),
        "country": .text("+44 United Kingdom"), "phone": .text("07700900123"), "phone_e164": .text("+447700900123"),
        "sms_code": .text("123"), "provider": .text("apple"), "provider_name": .text("Apple"),
        "social_account": .text("jo@icloud.com"), "user_code": .text("BCDF-GHJK"),
        "verification_uri": .text("http://192.168.1.20:8080/device"),
        "verification_uri_complete": .text("HTTP://192.168.1.20:8080/D/BCDF-GHJK"),
        // Shown at the screen's first moment (0 ms): ten minutes left.
        "device_expires_at": .text("600000"), "browser": .text("no"), "full_name": .text("Jo Ann Smith"), "age_range": .text("25-40"),
        "gender": .text("Woman"), "seeking": .list(["Women", "Men"]), "ethnicity": .text("Asian"),
        "ethnicity_prefs": .list(["No preference"]), "relationship_type": .text("Serious"), "smoking": .text("Never"),
        "readiness": .text("7"), "interests": .list(["Focus", "Sleep"]), "supported_apps": .list(["Instagram", "TikTok", "X"]),
        "apps": .list(["Instagram"]), "streak_day": .text("3"),
        "banner": .text("Three breaths: Before you open an app, take three slow breaths."),
        "hub_summary": .list(["Readiness: 7 of 10", "Interests: Focus, Sleep", "Behind a mindful pause: Instagram"]),
    ]

    static let sizes = [(80, 24), (60, 20), (40, 12)]
    static let themes = [try! Themes.builtin("default"), try! Themes.builtin("mono")]

    @Test(arguments: BuiltinFlows.ids)
    func everyScreenOfTheFlow(id: String) throws {
        let engine = FlowEngine(flow: try BuiltinFlows.load(id))
        let renderer = Renderer(glyphs: .unicode)
        for screen in engine.flow.screens where screen.kind != .route {
            var state = FlowState(
                showing: screen.id,
                session: Session(
                    userID: "u_1", accessToken: "a", accessExpiresAt: 0, refreshToken: "r", refreshExpiresAt: nil,
                    isAnonymous: true, createdAt: 0, lastAuthenticated: 0))
            state.context = FlowContext(Self.sample)
            if screen.kind == .checklist {
                // Finished, with one task that fell back: every kind of line shows.
                state.checklist.tasks = screen.tasks.indices.map { $0 == 1 ? .fellBack("local-only mode") : .done("ready") }
                state.message = .notice("Everything is ready.")
            }
            for (width, height) in Self.sizes {
                let frame = renderer.render(engine.view(of: state), width: width, height: height)
                assertSnapshot(frame, named: "\(id)/\(screen.id)-\(width)x\(height)", themes: Self.themes)
                // Without colour, focus still shows: the mono theme styles it apart.
                let mono = try Themes.builtin("mono")
                let focusedRoles = Set((0..<height).flatMap { y in (0..<width).map { frame[$0, y].role } })
                    .filter { [.buttonFocused, .inputFocused, .optionFocused].contains($0) }
                for role in focusedRoles {
                    #expect(
                        mono.style(role) != mono.style(.text) && mono.style(role) != mono.style(.button),
                        "\(role) looks like plain text in mono")
                }
                // What has focus is always on screen, however small the terminal.
                let view = engine.view(of: state)
                if let focused = view.buttons.first(where: \.focused) {
                    #expect(
                        frame.text.contains(String(focused.label.prefix(width - 16))),
                        "\(id)/\(screen.id) at \(width)x\(height) hides the focused '\(focused.label)'")
                }
                if let focused = view.fields.first(where: \.focused) {
                    #expect(frame.text.contains(focused.label), "\(id)/\(screen.id) at \(width)x\(height) hides the focused field")
                }
                // At 80x24 every button shows.
                if width == 80 {
                    for button in view.buttons {
                        #expect(frame.text.contains(button.label), "\(id)/\(screen.id) hides '\(button.label)' at 80x24")
                    }
                }
            }
        }
    }
}
