@testable import FlowEngine
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
        #expect(editor.cursor == 5) // after "xmock"
        editor.apply(.wordRight)
        #expect(editor.cursor == 13)
        editor.apply(.wordLeft)
        #expect(editor.cursor == 8) // before "local"
        editor.deleteBackward()
        #expect(editor.text == "xmock:/local")
        editor.apply(.deleteForward)
        #expect(editor.text == "xmock:/ocal")
        editor.moveToEnd()
        editor.apply(.deleteForward)
        #expect(editor.text == "xmock:/ocal", "Delete at the end does nothing")
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
        var driver = FlowDriver("babybasics", exhaustive: true)
        driver.launch(effects: ["save progress at server"])
        driver.focus("server_url")
        driver.send(.intent(.setValue(.text("https://baby.exmple.org"))), effects: [])
        driver.key(.left, times: 8, effects: []) // before "mple.org"
        driver.type("a", effects: [])
        #expect(driver.text("server_url") == "https://baby.example.org")
        #expect(driver.state.form.cursor["server_url"] == 16)
        driver.key(.end, effects: [])
        #expect(driver.state.form.cursor["server_url"] == nil, "at the end, as typing always was")
        driver.key(.home, effects: [])
        driver.key(.edit(.deleteWordForward), effects: [])
        driver.type("http", effects: [])
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
        var driver = FlowDriver(flow: try FlowLoader.load(yaml: yaml, file: "born.yaml").get(), exhaustive: true)
        driver.launch(effects: ["save progress at ask"])
        driver.type("2", effects: [])
        #expect(driver.text("born") == "2", "the first digit replaces today, as before")
        driver.key(.edit(.deleteToStart), effects: [])
        #expect(driver.text("born") == "")
        driver.type("20240229", effects: [])
        #expect(driver.text("born") == "2024-02-29")
        driver.type("1", effects: [])
        #expect(driver.text("born") == "1", "typing over a full date starts a new one")
        driver.send(.intent(.paste("2025/02/03")), effects: [])
        #expect(driver.text("born") == "2025-02-03", "a pasted date replaces what was there")
    }

    @Test func aPasswordIsNeverKeptInTheKillBuffer() {
        var driver = FlowDriver("babybasics", exhaustive: true)
        driver.launch(effects: ["save progress at server"])
        driver.type("mock://local", into: "server_url", effects: [])
        driver.press("Continue", effects: ["call connect_server"])
        driver.answer(.success(CallOutput()), effects: ["save progress at auth"])
        driver.press("Create Account", effects: ["save progress at register"])
        #expect(driver.screen == "register")
        driver.type("some words", into: "name", effects: [])
        driver.key(.edit(.deleteToStart), effects: [])
        #expect(driver.state.form.killed == "some words")
        driver.type("secret pass", into: "password", effects: [])
        driver.key(.edit(.deleteToStart), effects: [])
        #expect(driver.text("password") == "")
        #expect(driver.state.form.killed == "some words")
        // Issue 32: nor is anything yanked into a password, where it cannot be seen.
        driver.key(.edit(.yank), effects: [])
        #expect(driver.text("password") == "")
        driver.focus("name")
        driver.key(.edit(.yank), effects: [])
        #expect(driver.text("name") == "some words", "a visible field still takes it")
    }

    @Test func phoneDigitsGoInAtTheCursorAndTheLimitIsSaid() {
        var driver = FlowDriver("abby", exhaustive: true)
        driver.launch(effects: ["save progress at consent"])
        driver.press("Agree and Continue", effects: ["track auth_method_viewed", "track onboarding_step_viewed", "save progress at method"])
        driver.press("Use Phone Number", effects: ["track onboarding_step_viewed", "save progress at phone"])
        #expect(driver.screen == "phone")
        driver.type("5550109999", into: "phone", effects: [])
        driver.key(.home, effects: [])
        driver.key(.right, times: 3, effects: [])
        driver.key(.edit(.deleteForward), effects: [])
        driver.type("7", effects: [])
        #expect(driver.text("phone") == "5557109999")
        driver.type("12345", effects: [])
        #expect(driver.text("phone") == "55571234109999")
        #expect(driver.state.form.errors["phone"] == "Only 14 digits fit here; the rest was left out.")
    }
}

/// The phone rule with its country judges a number as the service will (E.164), so the
/// form never sends one the service refuses.
@Suite struct PhoneRuleTests {
    let field = Field(id: "phone", kind: .phone, label: "Phone", rules: [Rule(.phone, field: "country", message: "Please enter a valid phone number")])

    @Test(arguments: [
        ("+1 United States", "5550", false), // +15550: too short for E.164
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
