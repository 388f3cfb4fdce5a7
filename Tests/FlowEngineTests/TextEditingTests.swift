@testable import FlowEngine
import FlowFiles
import ScreenTable
import Testing

/// Readline editing in text fields: the editor on its own, then through the engine.
@Suite struct TextEditingTests {
    @Test func theCursorMovesByCharacterAndWordAndTextGoesInWhereItIs() {
        var editor = LineEditor("mock://local")
        #expect(editor.cursor == 12)
        editor.moveToStart()
        editor.insert("x")
        #expect(editor.text == "xmock://local")
        editor.apply(.wordRight)
        #expect(editor.cursor == 5)  // after "xmock"
        editor.apply(.wordRight)
        #expect(editor.cursor == 13)
        editor.apply(.wordLeft)
        #expect(editor.cursor == 8)  // before "local"
        editor.deleteBackward()
        #expect(editor.text == "xmock:/local")
        editor.apply(.deleteForward)
        #expect(editor.text == "xmock:/ocal")
        editor.moveToEnd()
        editor.apply(.deleteForward)
        #expect(editor.text == "xmock:/ocal", "Delete at the end does nothing")
    }

    /// Issue 47: an invite link copied as Onboard drew it at 40 columns kept the wrap mark
    /// (`↩`), the line break and the card's margin, and was refused. A paste drops them;
    /// text that only looks like it (a mark mid-line, a last line) stays.
    @Test func aPasteOfWrappedTextDropsOnboardsOwnWrapMarks() {
        let drawn = "https://bb.example.org/invite/3f9c1e7b↩\n│  2d4c5a8e6f1b3d9c↩  │\n│  7a2e   │"
        #expect(FlowEngine.unwrapped(drawn) == "https://bb.example.org/invite/3f9c1e7b2d4c5a8e6f1b3d9c7a2e   │")
        #expect(FlowEngine.unwrapped("ab\\\ncd") == "abcd", "the plain glyphs' mark")
        #expect(FlowEngine.unwrapped("one\ntwo") == "one\ntwo")
        #expect(FlowEngine.unwrapped("a↩b") == "a↩b")
    }

    @Test func aGraphemeIsOneStep() {
        var editor = LineEditor("né👍🏽x")
        editor.moveLeft()
        editor.moveLeft()
        editor.deleteBackward()
        #expect(editor.text == "n👍🏽x")
        editor.moveRight()
        editor.insert("!")
        #expect(editor.text == "n👍🏽!x")
    }

    @Test func killsAreKeptForYankAndWordsDifferFromBlanks() {
        var editor = LineEditor("Jo Example-Name")
        #expect(editor.apply(.deleteWordBackward) == "Name")
        #expect(editor.text == "Jo Example-")
        #expect(editor.apply(.deleteToBlankBackward) == "Example-")
        #expect(editor.text == "Jo ")
        editor.moveToStart()
        #expect(editor.apply(.deleteWordForward) == "Jo")
        #expect(editor.apply(.deleteToEnd) == " ")
        editor.apply(.yank, yanking: "back")
        #expect(editor.text == "back")
        editor.moveLeft()
        #expect(editor.apply(.deleteToStart) == "bac")
        #expect(editor.text == "k" && editor.cursor == 0)
        #expect(editor.apply(.deleteToStart) == nil, "nothing to kill keeps the last kill")
    }

    @Test func aTypoInTheMiddleOfAURLIsFixedWithoutRetyping() {
        var driver = FlowDriver("babybasics")
        driver.launch(
            effects: ["track screen_viewed", "save progress at server"],
            changes: ["phase = showing", "placeholder = p", "screen = server", "since = now", "started = now", "starts run removed"])
        driver.focus("server_url", effects: [], changes: [])
        driver.send(
            .intent(.setValue(.text("https://baby.exmple.org"))), effects: [],
            changes: ["context.server_url = https://baby.exmple.org", "edited = now"])
        driver.key(.left, times: 8, effects: [], changes: ["cursor.server_url = 15"])  // before "mple.org"
        driver.type("a", effects: [], changes: ["context.server_url = https://baby.example.org", "cursor.server_url = 16"])
        #expect(driver.text("server_url") == "https://baby.example.org")
        #expect(driver.state.form.cursor["server_url"] == 16)
        driver.key(.end, effects: [], changes: ["cursor.server_url removed"])
        #expect(driver.state.form.cursor["server_url"] == nil, "at the end, as typing always was")
        driver.key(.home, effects: [], changes: ["cursor.server_url = 0"])
        driver.key(.edit(.deleteWordForward), effects: [], changes: ["context.server_url = ://baby.example.org", "killed = https"])
        driver.type("http", effects: [], changes: ["context.server_url = http://baby.example.org", "cursor.server_url = 4"])
        #expect(driver.text("server_url") == "http://baby.example.org")
    }

    /// Issue 32: in a date field Ctrl-U did nothing, a paste (2025/02/03) and typing over a
    /// full date were ignored, so Tab, 2, Ctrl-U, 20240229 gave 2202-40-22.
    @Test func aDateIsClearedWithCtrlUAndReplacedByAWholeDateTypedOrPasted() throws {
        let yaml = """
            id: born
            title: Born
            entry:
              first_launch: ask
            screens:
              - id: ask
                kind: form
                fields:
                  - id: born
                    kind: date
                    label: Born
                actions:
                  - label: Done
                    quit: true
            """
        var driver = FlowDriver(flow: try FlowLoader.load(yaml: yaml, file: "born.yaml").get())
        driver.launch(
            effects: ["save progress at ask"],
            changes: [
                "context.born = 2026-11-22", "phase = showing", "placeholder = p", "screen = ask", "since = now", "started = now",
                "starts run removed",
            ])
        driver.type("2", effects: [], changes: ["context.born = 2", "edited = now", "typing number = born"])
        #expect(driver.text("born") == "2", "the first digit replaces today, as before")
        driver.key(.edit(.deleteToStart), effects: [], changes: ["context.born = "])
        #expect(driver.text("born") == "")
        driver.type("20240229", effects: [], changes: ["context.born = 2024-02-29"])
        #expect(driver.text("born") == "2024-02-29")
        driver.type("1", effects: [], changes: ["context.born = 1"])
        #expect(driver.text("born") == "1", "typing over a full date starts a new one")
        driver.send(.intent(.paste("2025/02/03")), effects: [], changes: ["context.born = 2025-02-03"])
        #expect(driver.text("born") == "2025-02-03", "a pasted date replaces what was there")
    }

    @Test func aPasswordIsNeverKeptInTheKillBuffer() {
        var driver = FlowDriver("babybasics")
        driver.launch(
            effects: ["track screen_viewed", "save progress at server"],
            changes: ["phase = showing", "placeholder = p", "screen = server", "since = now", "started = now", "starts run removed"])
        driver.type("mock://local", into: "server_url", effects: [], changes: ["context.server_url = mock://local", "edited = now"])
        driver.press(
            "Continue", effects: ["save progress at server", "call connect_server"],
            changes: ["call 1 = connect_server (user's, from server)", "edited removed", "focus = 1"])
        driver.answer(
            .success(CallOutput()), effects: ["track screen_viewed", "save progress at auth"],
            changes: ["call 1 removed", "focus = 0", "history = server", "screen = auth", "succeeded connect_server = now"])
        driver.press(
            "Create Account", effects: ["track screen_viewed", "save progress at register"],
            changes: ["history = server › auth", "screen = register"])
        #expect(driver.screen == "register")
        driver.type("some words", into: "name", effects: [], changes: ["context.name = some words", "edited = now"])
        driver.key(.edit(.deleteToStart), effects: [], changes: ["context.name = ", "killed = some words"])
        #expect(driver.state.form.killed == "some words")
        driver.type(
            "secret pass", into: "password", effects: ["save progress at register"],
            changes: ["context.password = secret pass", "focus = 2"])
        driver.key(.edit(.deleteToStart), effects: [], changes: ["context.password = "])
        #expect(driver.text("password") == "")
        #expect(driver.state.form.killed == "some words")
        // Issue 32: nor is anything yanked into a password, where it cannot be seen.
        driver.key(.edit(.yank), effects: [], changes: [])
        #expect(driver.text("password") == "")
        driver.focus("name", effects: ["save progress at register"], changes: ["edited removed", "focus = 0"])
        driver.key(.edit(.yank), effects: [], changes: ["context.name = some words", "edited = now"])
        #expect(driver.text("name") == "some words", "a visible field still takes it")
    }

    @Test func phoneDigitsGoInAtTheCursorAndTheLimitIsSaid() {
        var driver = FlowDriver("abby")
        driver.launch(
            effects: ["save progress at consent"],
            changes: ["phase = showing", "placeholder = p", "screen = consent", "since = now", "started = now", "starts run removed"])
        driver.press(
            "Agree and Continue",
            effects: ["track screen_viewed", "track auth_method_viewed", "track onboarding_step_viewed", "save progress at method"],
            changes: ["context.analytics_consent = granted", "history = consent", "screen = method"])
        driver.press(
            "Use Phone Number", effects: ["track screen_viewed", "track onboarding_step_viewed", "save progress at phone"],
            changes: ["context.country = +1 United States / Canada", "history = consent › method", "screen = phone"])
        #expect(driver.screen == "phone")
        driver.type(
            "5550109999", into: "phone", effects: ["save progress at phone"],
            changes: ["context.phone = 5550109999", "edited = now", "focus = 1"])
        driver.key(.home, effects: [], changes: ["cursor.phone = 0"])
        driver.key(.right, times: 3, effects: [], changes: ["cursor.phone = 3"])
        driver.key(.edit(.deleteForward), effects: [], changes: ["context.phone = 555109999"])
        driver.type("7", effects: [], changes: ["context.phone = 5557109999", "cursor.phone = 4"])
        #expect(driver.text("phone") == "5557109999")
        driver.type(
            "12345", effects: [],
            changes: [
                "context.phone = 55571234109999",
                "cursor.phone = 8",
                "error.phone = Only 14 digits fit here; the rest was left out.",
            ])
        #expect(driver.text("phone") == "55571234109999")
        #expect(driver.state.form.errors["phone"] == "Only 14 digits fit here; the rest was left out.")
    }
}

/// The phone rule with its country judges a number as the service will (E.164), so the
/// form never sends one the service refuses.
@Suite struct PhoneRuleTests {
    let field = Field(
        id: "phone", kind: .phone, label: "Phone", rules: [Rule(.phone, field: "country", message: "Please enter a valid phone number")])

    @Test(arguments: [
        ("+1 United States", "5550", false),  // +15550: too short for E.164
        ("+1 United States", "(555) 010-9999", true),
        ("+44 United Kingdom", "07700 900123", true),
        ("+44 United Kingdom", "12", false),
        ("+353 Ireland", "871234567", true),
    ])
    func aNumberPassesWhenTheServiceWouldTakeIt(country: String, digits: String, passes: Bool) {
        let failure = Validation.firstFailure(of: field, values: ["country": country, "phone": digits])
        #expect((failure == nil) == passes, "\(country) \(digits)")
    }
}
