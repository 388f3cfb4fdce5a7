@testable import CursesBackend
import PtyShim
import Foundation
import TerminalUI
import Testing

/// ncurses is not thread-safe: everything that opens a terminal lives in this one
/// serialized suite.
@Suite(.serialized) struct CursesTerminalTests {
    init() {
        TextMetrics.prepareLocale()
    }

    /// A pseudo-terminal pair; the test plays the user on the leader side.
    struct PTY {
        var leader: Int32 = -1
        var follower: Int32 = -1

        init(width: Int, height: Int) throws {
            var path = [CChar](repeating: 0, count: 128)
            guard onboard_pty_open(&leader, &path, Int32(path.count), Int32(height), Int32(width)) == 0 else {
                throw POSIXError(.ENODEV)
            }
            follower = open(path, O_RDWR | O_NOCTTY)
            guard follower >= 0 else { throw POSIXError(.ENODEV) }
            _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
        }

        func type(_ text: String) {
            _ = text.utf8CString.withUnsafeBufferPointer { write(leader, $0.baseAddress, $0.count - 1) }
        }

        /// Reads what the program sent to the terminal, so its buffer never fills.
        func drain() -> Int {
            var buffer = [UInt8](repeating: 0, count: 65536)
            var total = 0
            while true {
                let count = read(leader, &buffer, buffer.count)
                if count <= 0 { return total }
                total += count
            }
        }

        func close() {
            Foundation.close(leader)
            Foundation.close(follower)
        }
    }

    @Test func drawsAFrameAndReadsKeysOnARealTerminal() throws {
        let pty = try PTY(width: 40, height: 12)
        defer { pty.close() }
        let terminal = try CursesTerminal(
            term: "xterm-256color", theme: try Themes.builtin("default"), inputDescriptor: pty.follower, outputDescriptor: pty.follower)
        defer { terminal.close() }
        #expect(terminal.size.width == 40)
        #expect(terminal.size.height == 12)

        var frame = Frame(width: 40, height: 12)
        frame.put("Welcome to OKLah", x: 2, y: 1, role: .title)
        frame.put("日本語 and e\u{301}", x: 2, y: 3, role: .text)
        frame.put("> Start <", x: 15, y: 5, role: .buttonFocused)
        terminal.draw(frame)
        #expect(pty.drain() > 0)
        #expect(terminal.row(1) == "  Welcome to OKLah")
        #expect(terminal.row(3) == "  日本語 and e\u{301}")
        #expect(terminal.row(5) == "               > Start <")

        pty.type("\t\u{1B}OAa\u{03}\r")
        usleep(100_000)
        let inputs = terminal.pendingInputs()
        #expect(inputs == [.key(.tab), .key(.up), .key(.character("a")), .key(.control("c")), .key(.enter)])
    }

    @Test func garbageBytesDoNotBecomeKeysOrCrash() throws {
        let pty = try PTY(width: 40, height: 12)
        defer { pty.close() }
        let terminal = try CursesTerminal(
            term: "xterm-256color", theme: try Themes.builtin("mono"), inputDescriptor: pty.follower, outputDescriptor: pty.follower)
        defer { terminal.close() }
        _ = [UInt8]([0xFF, 0xC3, 0x28, 0x00, 0x1F, 0x41]).withUnsafeBufferPointer { write(pty.leader, $0.baseAddress, $0.count) }
        usleep(100_000)
        var inputs = terminal.pendingInputs()
        pty.type("B")
        usleep(100_000)
        inputs += terminal.pendingInputs()
        // ncurses drops an invalid sequence; what follows is read normally.
        #expect(inputs.last == .key(.character("B")))
        #expect(!inputs.contains(.key(.character("\u{0}"))))
    }

    @Test func aTerminalWithoutCursorAddressingIsRefusedInPlainWords() throws {
        let pty = try PTY(width: 40, height: 12)
        defer { pty.close() }
        #expect(throws: CursesTerminal.OpenError.self) {
            _ = try CursesTerminal(
                term: "dumb", theme: try Themes.builtin("mono"), inputDescriptor: pty.follower, outputDescriptor: pty.follower)
        }
        do {
            _ = try CursesTerminal(
                term: "no-such-terminal", theme: try Themes.builtin("mono"), inputDescriptor: pty.follower, outputDescriptor: pty.follower)
            Issue.record("an unknown terminal opened")
        } catch {
            #expect("\(error)" == "the terminal type 'no-such-terminal' is unknown to this system")
        }
    }

    @Test func aBracketedPasteArrivesAsOneTextAndIsTurnedOnAndOff() throws {
        let pty = try PTY(width: 40, height: 12)
        defer { pty.close() }
        let terminal = try CursesTerminal(
            term: "xterm-256color", theme: try Themes.builtin("mono"), inputDescriptor: pty.follower, outputDescriptor: pty.follower)
        var sent = readAll(pty)
        #expect(sent.contains("\u{1B}[?2004h"), "bracketed paste is turned on")

        // A newline inside the paste is text, not Enter; keys around it stay keys; the
        // end marker may come in a later read.
        pty.type("x\u{1B}[200~https://a.example\rsecond")
        usleep(100_000)
        var inputs = terminal.pendingInputs()
        pty.type(" line\u{1B}[201~\t")
        usleep(100_000)
        inputs += terminal.pendingInputs()
        #expect(inputs == [.key(.character("x")), .paste("https://a.example\nsecond line"), .key(.tab)])

        // Esc pressed alone is still Esc.
        pty.type("\u{1B}")
        usleep(150_000)
        #expect(terminal.pendingInputs() == [.key(.escape)])

        terminal.close()
        sent = readAll(pty)
        #expect(sent.contains("\u{1B}[?2004l"), "bracketed paste is turned off on the way out")
    }

    /// The same bytes are the same keys whatever TERM says: what the terminfo entry lists
    /// ncurses decodes, the rest Onboard does, and nothing leaks as Esc plus text.
    @Test(arguments: ["xterm-256color", "screen-256color", "linux", "vt220", "rxvt"])
    func homeEndAndModifiedKeysReadTheSameOnEveryTerminalType(term: String) throws {
        let pty = try PTY(width: 40, height: 12)
        defer { pty.close() }
        let terminal = try CursesTerminal(
            term: term, theme: try Themes.builtin("mono"), inputDescriptor: pty.follower, outputDescriptor: pty.follower)
        defer { terminal.close() }
        _ = pty.drain()
        let sequences: [(String, Key)] = [
            ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
            ("\u{1B}OH", .home), ("\u{1B}OF", .end), ("\u{1B}[H", .home), ("\u{1B}[F", .end),
            ("\u{1B}[3~", .delete), ("\u{1B}[2~", .insert), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
            ("\u{1B}[D", .left), ("\u{1B}OC", .right), ("\u{1B}[1;5D", .modified(.left, .control)),
            ("\u{1B}[1;3C", .modified(.right, .alt)), ("\u{1B}b", .modified(.character("b"), .alt)),
            ("\u{1B}\u{7F}", .modified(.backspace, .alt)), ("\u{1B}[24~", .function(12)), ("\u{1B}OP", .function(1)),
        ]
        // Where the terminfo entry names the bytes a key, its word wins: rxvt's lists
        // `ESC O C` as Ctrl-Shift-Right.
        for (bytes, key) in sequences where !(term == "rxvt" && bytes == "\u{1B}OC") {
            pty.type("a" + bytes + "z")
            usleep(60_000)
            let inputs = terminal.pendingInputs()
            #expect(inputs == [.key(.character("a")), .key(key), .key(.character("z"))], "\(term): \(bytes.debugDescription)")
        }
        pty.type("a\u{1B}[1;9Xz")
        usleep(60_000)
        #expect(terminal.pendingInputs() == [.key(.character("a")), .key(.character("z"))], "\(term): an unknown sequence is dropped")
    }

    @Test func ncursesKeyNamesMeanTheirKeys() {
        #expect(CursesTerminal.key(forName: "KEY_LEFT") == .left)
        #expect(CursesTerminal.key(forName: "kLFT5") == .modified(.left, .control))
        #expect(CursesTerminal.key(forName: "kDC3") == .modified(.delete, .alt))
        #expect(CursesTerminal.key(forName: "KEY_F(12)") == .function(12))
        #expect(CursesTerminal.key(forName: "KEY_F(24)") == .modified(.function(12), .shift))
        #expect(CursesTerminal.key(forName: "KEY_MOUSE") == nil)
    }

    private func readAll(_ pty: PTY) -> String {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var text = ""
        while true {
            let count = read(pty.leader, &buffer, buffer.count)
            if count <= 0 { return text }
            text += String(decoding: buffer.prefix(count), as: UTF8.self)
        }
    }
}
