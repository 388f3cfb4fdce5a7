import Testing
import TestSupport
@testable import TerminalUI

/// Escape sequences decoded the same whatever TERM says; nothing leaks as Esc plus text.
@Suite struct KeyDecoderTests {
    /// Bytes as a terminal library hands over what its terminfo entry does not know:
    /// Esc, then each character.
    static func keys(_ bytes: String) -> [Key] {
        bytes.map { $0 == "\u{1B}" ? .escape : $0 == "\r" ? .enter : .character($0) }
    }

    static func decode(_ bytes: String) -> [TerminalInput] {
        var decoder = KeyDecoder()
        return decoder.decode(keys(bytes))
    }

    static let sequences: [(String, Key)] = [
        // Home and End in all their forms: xterm, VT220 / tmux / screen, rxvt, Linux console.
        ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
        ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
        // Arrows, normal and application mode.
        ("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
        ("\u{1B}[2~", .insert), ("\u{1B}[3~", .delete), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}[Z", .backTab),
        // F1-F12: xterm, VT220, Linux console.
        ("\u{1B}OP", .function(1)), ("\u{1B}OQ", .function(2)), ("\u{1B}OR", .function(3)), ("\u{1B}OS", .function(4)),
        ("\u{1B}[11~", .function(1)), ("\u{1B}[12~", .function(2)), ("\u{1B}[13~", .function(3)), ("\u{1B}[14~", .function(4)),
        ("\u{1B}[15~", .function(5)), ("\u{1B}[17~", .function(6)), ("\u{1B}[18~", .function(7)), ("\u{1B}[19~", .function(8)),
        ("\u{1B}[20~", .function(9)), ("\u{1B}[21~", .function(10)), ("\u{1B}[23~", .function(11)), ("\u{1B}[24~", .function(12)),
        ("\u{1B}[[A", .function(1)), ("\u{1B}[[E", .function(5)),
        // xterm modifiers: 2 Shift, 3 Alt, 5 Ctrl, 9 Meta.
        ("\u{1B}[1;5D", .modified(.left, .control)), ("\u{1B}[1;3C", .modified(.right, .alt)),
        ("\u{1B}[1;2A", .modified(.up, .shift)), ("\u{1B}[1;9D", .modified(.left, .alt)),
        ("\u{1B}[1;5H", .modified(.home, .control)), ("\u{1B}[3;5~", .modified(.delete, .control)),
        ("\u{1B}[5;3~", .modified(.pageUp, .alt)), ("\u{1B}[24;2~", .modified(.function(12), .shift)),
        ("\u{1B}[1;2P", .modified(.function(1), .shift)), ("\u{1B}[5D", .modified(.left, .control)),
        ("\u{1B}O5D", .modified(.left, .control)),
        // rxvt: Shift and Ctrl arrows, $ ^ @ endings.
        ("\u{1B}[d", .modified(.left, .shift)), ("\u{1B}Od", .modified(.left, .control)),
        ("\u{1B}Oc", .modified(.right, .control)), ("\u{1B}[7$", .modified(.home, .shift)),
        ("\u{1B}[8^", .modified(.end, .control)), ("\u{1B}[3@", .modified(.delete, [.control, .shift])),
        // Alt as Esc first: letters, Backspace, and rxvt's Alt with an arrow.
        ("\u{1B}b", .modified(.character("b"), .alt)), ("\u{1B}f", .modified(.character("f"), .alt)),
        ("\u{1B}\u{1B}[D", .modified(.left, .alt)),
        // The numeric keypad in application mode.
        ("\u{1B}Op", .character("0")), ("\u{1B}Oy", .character("9")), ("\u{1B}OM", .enter), ("\u{1B}Ok", .character("+")),
        // modifyOtherKeys and the fixterms form.
        ("\u{1B}[27;5;97~", .control("a")), ("\u{1B}[97;5u", .control("a")), ("\u{1B}[13;2u", .modified(.enter, .shift)),
    ]

    @Test func everyCommonSequenceIsItsKeyWhateverTheTerminal() {
        for (bytes, key) in Self.sequences {
            #expect(Self.decode(bytes) == [.key(key)], "\(bytes.debugDescription)")
        }
    }

    @Test func theIssuesLeaksAreGone() {
        // Typed into a URL field under tmux: Home, X, End, then an unknown Ctrl-Alt key.
        let typed = Self.decode("mock://local\u{1B}[1~X\u{1B}[4~\u{1B}[1;9X")
        #expect(typed == "mock://local".map { .key(.character($0)) } + [.key(.home), .key(.character("X")), .key(.end)])
    }

    @Test func anUnknownCompleteSequenceIsDroppedWhole() {
        // Focus in and out, an SGR mouse report, a device reply, unknown numbers and finals.
        for bytes in ["\u{1B}[I", "\u{1B}[O", "\u{1B}[<0;12;5M", "\u{1B}[?1;2c", "\u{1B}[99~", "\u{1B}[1;9X", "\u{1B}Oz", "\u{1B}[[Z"] {
            #expect(Self.decode(bytes) == [], "\(bytes.debugDescription)")
        }
    }

    @Test func escAloneIsEscAndEscBeforeEnterIsTwoKeys() {
        #expect(Self.decode("\u{1B}") == [.key(.escape)])
        #expect(Self.decode("\u{1B}\r") == [.key(.escape), .key(.enter)])
        #expect(Self.decode("\u{1B}\u{1B}") == [.key(.escape), .key(.escape)])
    }

    @Test func aSequenceSplitAcrossReadsIsJoined() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Self.keys("a\u{1B}[1")) == [.key(.character("a"))])
        #expect(decoder.decode(Self.keys(";5Db")) == [.key(.modified(.left, .control)), .key(.character("b"))])
        #expect(decoder.decode(Self.keys("\u{1B}O")) == [])
        #expect(decoder.decode(Self.keys("H")) == [.key(.home)])
    }

    @Test func aPasteIsOneTextAndItsSequencesAreNotKeys() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Self.keys("\u{1B}[200~line one\rtwo\u{1B}[A")) == [])
        #expect(decoder.decode(Self.keys("\u{1B}")) == [])
        #expect(decoder.decode(Self.keys("[201~x")) == [.paste("line one\ntwo"), .key(.character("x"))])
    }

    /// Random unknown sequences between text: the text comes through, nothing else.
    @Test func aBurstOfRandomSequencesLeavesOnlyTheText() {
        var generator = SeededGenerator(seed: 16)
        // Not M: `ESC [ M` alone is an X10 mouse report, three bytes of place after it.
        let finals = Array("GIJKLNOTXYghijklmnopqrstvwxyz")
        for _ in 0..<500 {
            var bytes = ""
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let word = String(
                    (0..<Int.random(in: 1...4, using: &generator)).map { _ in "abcxyz019 ".randomElement(using: &generator)! })
                text += word
                bytes += word
                let parameters = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    String(Int.random(in: 0...300, using: &generator))
                }
                bytes += "\u{1B}[" + parameters.joined(separator: ";") + String(finals.randomElement(using: &generator)!)
            }
            #expect(Self.decode(bytes) == text.map { .key(.character($0)) }, "\(bytes.debugDescription)")
        }
    }

    /// Issue 47: a terminal's replies and reports were typed into fields — a colour reply
    /// (OSC, ended by BEL, which also opened the QA console, or by ST), tmux's version
    /// (DCS), mouse reports (SGR and X10), kitty's keypad codes as private-use characters.
    /// Each is read by its grammar and dropped whole; the text around it stays.
    @Test func repliesAndReportsAreNeverTyped() {
        func keys(_ bytes: String) -> [Key] { bytes.map { $0 == "\u{07}" ? .control("g") : Self.keys(String($0))[0] } }
        func decode(_ bytes: String) -> [TerminalInput] {
            var decoder = KeyDecoder()
            return decoder.decode(keys(bytes))
        }
        let text: [TerminalInput] = [.key(.character("a")), .key(.character("b"))]
        for reply in [
            "\u{1B}]11;rgb:0000/0000/0000\u{07}", "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\", "\u{1B}P>|tmux 3.3\u{1B}\\",
            "\u{1B}_Gi=1;OK\u{1B}\\", "\u{1B}^private\u{1B}\\", "\u{1B}[<0;10;5M", "\u{1B}[<0;10;5m", "\u{1B}[M !!",
            "\u{1B}[57400u", "\u{1B}[57450u",
        ] {
            let decoded = decode("a" + reply + "b")
            let expected: [TerminalInput] = reply == "\u{1B}[57400u" ? [text[0], .key(.character("1")), text[1]] : text
            #expect(decoded == expected, "\(reply.debugDescription): \(decoded)")
        }
        // Cut between two reads, a reply is held until its end comes.
        var decoder = KeyDecoder()
        #expect(decoder.decode(keys("a\u{1B}]11;rgb:00")) == [text[0]])
        #expect(decoder.decode(keys("00/0000/0000\u{07}b")) == [text[1]])
        // Alt with ] (Esc then ], alone in a read) is still a key.
        #expect(decode("\u{1B}]") == [.key(.modified(.character("]"), .alt))])
    }
}
