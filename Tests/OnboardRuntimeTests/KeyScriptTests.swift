import OnboardRuntime
import TerminalUI
import Testing

@Suite struct KeyScriptTests {
    @Test func textNamedKeysWaitsAndComments() throws {
        let script = try KeyScript.parse(
            """
            # a comment
            wait:Welcome
            Jo<Tab>a<<b<C-r><Enter>

            <sms-code>
            """)
        #expect(
            script.steps == [
                .wait("Welcome"),
                .keys([.character("J"), .character("o"), .tab, .character("a"), .character("<"), .character("b"), .control("r"), .enter]),
                .smsCode,
            ])
    }

    @Test func modifiersAreWrittenAsTmuxWritesThem() throws {
        let script = try KeyScript.parse("<M-b><C-Left><S-Home><M-BSpace><C-u><Delete>")
        #expect(
            script.steps == [
                .keys([
                    .modified(.character("b"), .alt), .modified(.left, .control), .modified(.home, .shift),
                    .modified(.backspace, .alt), .control("u"), .delete,
                ])
            ])
        #expect(throws: KeyScript.ParseError.self) { try KeyScript.parse("<M-nothing>") }
    }

    @Test func anUnknownKeyNamesItsLine() {
        do {
            _ = try KeyScript.parse("wait:x\n<Enterr>")
            Issue.record("parsed an unknown key")
        } catch let error as KeyScript.ParseError {
            #expect(error.line == 2)
            #expect(error.description.hasPrefix("line 2: unknown key <enterr>"))
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: KeyScript.ParseError.self) { try KeyScript.parse("a<Tab") }
        #expect(throws: KeyScript.ParseError.self) { try KeyScript.parse("wait:") }
    }
}
