import OnboardRuntime
import TerminalUI
import Testing

@Suite struct KeyScriptTests {
    @Test func textNamedKeysWaitsAndComments() throws {
        let script = try KeyScript.parse("""
            # a comment
            wait:Welcome
            Jo<Tab>a<<b<C-r><Enter>

            <sms-code>
            """)
        #expect(script.steps == [
            .wait("Welcome"),
            .keys([.character("J"), .character("o"), .tab, .character("a"), .character("<"), .character("b"), .control("r"), .enter]),
            .smsCode,
        ])
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
