@preconcurrency import CursesShim
import Glibc
import TerminalUI

/// The terminal, through ncurses: draws Frames, reads keys, follows resizes. The only
/// Swift type that calls ncurses; use it from one thread (the UI thread) only.
public final class CursesTerminal {
    public struct OpenError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private var screen: OpaquePointer?
    /// The descriptor keys arrive on, for the event loop to poll.
    public let inputDescriptor: Int32
    private var pairs: [Role: Int16] = [:]
    private var attributes: [Role: Int32] = [:]
    private let resizeCode: Int32
    /// Key codes read so far, by what they mean (nil: a key Onboard has no use for).
    private var keyCodes: [Int32: Key?] = [:]
    private var decoder = KeyDecoder()

    /// Opens the terminal named by `term` (default `$TERM`) on the given descriptors.
    /// Fails with a plain reason for an unknown type or one without cursor addressing.
    public init(term: String?, theme: Theme, inputDescriptor: Int32 = 0, outputDescriptor: Int32 = 1) throws {
        // LINES/COLUMNS in the environment would pin the size and break resizing.
        self.inputDescriptor = inputDescriptor
        unsetenv("LINES")
        unsetenv("COLUMNS")
        guard let term, !term.isEmpty else {
            throw OpenError(description: "TERM is not set, so Onboard cannot tell how to draw on this terminal")
        }
        var reason = [CChar](repeating: 0, count: 256)
        guard let opened = onboard_open_terminal(term, inputDescriptor, outputDescriptor, &reason, Int32(reason.count)) else {
            throw OpenError(description: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        screen = opened
        resizeCode = onboard_key_code("resize")
        apply(theme)
    }

    deinit { close() }

    /// Leaves curses mode and gives the terminal back as it was.
    public func close() {
        guard let screen else { return }
        onboard_close_terminal(screen)
        self.screen = nil
    }

    public var size: (width: Int, height: Int) {
        var rows: Int32 = 0
        var columns: Int32 = 0
        onboard_size(&rows, &columns)
        return (Int(columns), Int(rows))
    }

    public var colourCount: Int { Int(COLORS) }

    /// Sets up colour pairs and attributes for each role. Colours the terminal lacks
    /// fall back to their nearest basic colour.
    public func apply(_ theme: Theme) {
        pairs = [:]
        attributes = [:]
        let colours = Int(COLORS)
        let useColour = has_colors() && theme.usesColour
        for (index, role) in Role.allCases.enumerated() {
            let style = theme.style(role)
            var flags: Int32 = 0
            if style.bold { flags |= Int32(ONBOARD_ATTR_BOLD) }
            if style.underline { flags |= Int32(ONBOARD_ATTR_UNDERLINE) }
            if style.reverse { flags |= Int32(ONBOARD_ATTR_REVERSE) }
            if style.dim { flags |= Int32(ONBOARD_ATTR_DIM) }
            attributes[role] = flags
            guard useColour, style.foreground != nil || style.background != nil else { continue }
            let pair = Int16(index + 1)
            init_pair(pair, Self.fit(style.foreground, colours), Self.fit(style.background, colours))
            pairs[role] = pair
        }
    }

    static func fit(_ colour: Int?, _ available: Int) -> Int16 {
        guard let colour else { return -1 }
        return Int16(ColourFitting.fit(colour, available: available))
    }

    /// Draws a whole frame. ncurses compares with what is on screen and sends only
    /// the difference.
    public func draw(_ frame: Frame) {
        erase()
        for y in 0..<frame.height {
            var x = 0
            while x < frame.width {
                let role = frame[x, y].role
                var run: [wchar_t] = []
                let start = x
                while x < frame.width, frame[x, y].role == role {
                    for scalar in frame[x, y].text.unicodeScalars { run.append(wchar_t(bitPattern: scalar.value)) }
                    x += 1
                }
                run.withUnsafeBufferPointer { buffer in
                    onboard_draw_run(
                        Int32(y), Int32(start), buffer.baseAddress, Int32(buffer.count), attributes[role] ?? 0, pairs[role] ?? 0)
                }
            }
        }
        if let cursor = frame.cursor {
            move(Int32(cursor.y), Int32(cursor.x))
            curs_set(1)
        } else {
            curs_set(0)
        }
        refresh()
    }

    /// Forces a full repaint next time (after a suspend, or when the screen was
    /// disturbed from outside).
    public func invalidate() {
        clearok(curscr, true)
    }

    /// Every key waiting, without blocking; escape sequences decoded whatever TERM
    /// says (`KeyDecoder`), a bracketed paste as one `.paste`.
    public func pendingInputs() -> [TerminalInput] {
        var inputs: [TerminalInput] = []
        var keys: [Key] = []
        func decodeKeys() {
            inputs += decoder.decode(keys)
            keys = []
        }
        var value: Int32 = 0
        var misses = 0
        while true {
            let kind = onboard_read_key(&value)
            if kind == 0 {
                // Invalid UTF-8 also reads as "nothing" while more bytes wait in ncurses'
                // own buffer, where poll() cannot see them: ask again before stopping.
                misses += 1
                if misses > 2 { break }
                continue
            }
            misses = 0
            if kind == 2 {
                if value == resizeCode {
                    decodeKeys()
                    inputs.append(.resize)
                } else if let key = key(forCode: value) {
                    keys.append(key)
                } else if onboard_key_name(value).map({ String(cString: $0) }) == "KEY_MOUSE" {
                    // ncurses read the report's start (terminfo's kmous, `ESC [ <` or
                    // `ESC [ M`) and left the rest: given back, the decoder drops it whole.
                    keys += Self.mousePrefix
                }
                continue
            }
            if let key = Self.key(forCharacter: value) { keys.append(key) }
            if keys.count > 4096 { break }  // a huge paste is read over several turns
        }
        decodeKeys()
        return inputs
    }

    /// terminfo's kmous as keys (`ESC [ <` under xterm-256color); ESC [ M without one.
    static let mousePrefix: [Key] = {
        let text = onboard_mouse_prefix().map { String(cString: $0) } ?? "\u{1B}[M"
        return text.map { $0 == "\u{1B}" ? .escape : .character($0) }
    }()

    /// What a key code ncurses decoded means, by its name (asked once per code).
    private func key(forCode code: Int32) -> Key? {
        if let known = keyCodes[code] { return known }
        let name = onboard_key_name(code).map { String(cString: $0) } ?? ""
        let key = Self.key(forName: name)
        keyCodes[code] = key
        return key
    }

    /// ncurses' names for key codes: `KEY_LEFT`, `KEY_F(13)` (Shift-F1 in xterm's
    /// numbering), and terminfo's extended names for modified keys (`kLFT5`).
    static func key(forName name: String) -> Key? {
        let plain: [String: Key] = [
            "KEY_UP": .up, "KEY_DOWN": .down, "KEY_LEFT": .left, "KEY_RIGHT": .right,
            "KEY_HOME": .home, "KEY_END": .end, "KEY_PPAGE": .pageUp, "KEY_NPAGE": .pageDown,
            "KEY_DC": .delete, "KEY_IC": .insert, "KEY_BTAB": .backTab, "KEY_BACKSPACE": .backspace,
            "KEY_ENTER": .enter, "KEY_A1": .home, "KEY_A3": .pageUp, "KEY_C1": .end, "KEY_C3": .pageDown,
            // VT220's Find and Select sit where Home and End are, and send what tmux,
            // screen and PuTTY send for them.
            "KEY_FIND": .home, "KEY_SELECT": .end,
            "KEY_SLEFT": .modified(.left, .shift), "KEY_SRIGHT": .modified(.right, .shift),
            "KEY_SR": .modified(.up, .shift), "KEY_SF": .modified(.down, .shift),
            "KEY_SHOME": .modified(.home, .shift), "KEY_SEND": .modified(.end, .shift),
            "KEY_SDC": .modified(.delete, .shift), "KEY_SIC": .modified(.insert, .shift),
            "KEY_SNEXT": .modified(.pageDown, .shift), "KEY_SPREVIOUS": .modified(.pageUp, .shift),
        ]
        if let key = plain[name] { return key }
        if name.hasPrefix("KEY_F("), name.hasSuffix(")"), let number = Int(name.dropFirst(6).dropLast()), number >= 1 {
            // xterm numbers F13-F24 Shift, F25-F36 Ctrl, F37-F48 Ctrl-Shift, F49-F60 Alt.
            let modifiers: [Key.Modifiers] = [[], .shift, .control, [.control, .shift], .alt]
            let group = (number - 1) / 12
            guard group < modifiers.count else { return nil }
            return Key.with(.function((number - 1) % 12 + 1), modifiers[group])
        }
        let extended: [String: Key] = [
            "kUP": .up, "kDN": .down, "kLFT": .left, "kRIT": .right, "kHOM": .home, "kEND": .end,
            "kDC": .delete, "kIC": .insert, "kNXT": .pageDown, "kPRV": .pageUp,
        ]
        if let digit = name.last?.wholeNumberValue, let base = extended[String(name.dropLast())] {
            return Key.with(base, Key.Modifiers(xtermParameter: digit))
        }
        return nil
    }

    static func key(forCharacter value: Int32) -> Key? {
        switch value {
        case 13, 10: return .enter
        case 9: return .tab
        case 27: return .escape
        case 127, 8: return .backspace
        case 1...26: return .control(Character(UnicodeScalar(UInt8(value + 96))))
        case 0, 28...31: return nil
        default:
            guard let scalar = UnicodeScalar(UInt32(bitPattern: value)) else { return nil }
            if scalar.properties.generalCategory == .control { return nil }
            return .character(Character(scalar))
        }
    }

    /// Row `y` as ncurses holds it, for tests that read the screen back.
    public func row(_ y: Int) -> String {
        var buffer = [wchar_t](repeating: 0, count: size.width + 1)
        let count = onboard_read_row(Int32(y), &buffer, Int32(size.width))
        guard count > 0 else { return "" }
        let scalars = buffer.prefix(Int(count)).compactMap { UnicodeScalar(UInt32(bitPattern: $0)) }
        var text = String(String.UnicodeScalarView(scalars))
        while text.last == " " { text.removeLast() }
        return text
    }

    /// A session leader (a `serve-ssh` session, a terminal window's own program) has no
    /// shell to return to: stopped, it would never be continued. Asked once, not per draw.
    public let canSuspend = getsid(0) != getpid()

    /// Ctrl-Z: leave curses mode, stop, and come back redrawn when continued.
    public func suspend() {
        onboard_suspend_self()
        invalidate()
    }

    /// Routes SIGTERM, SIGHUP, SIGINT and SIGCONT to a descriptor the event loop
    /// polls, and restores the terminal if the process crashes.
    public static func installSignalHandlers(notifying descriptor: Int32) {
        onboard_install_signal_pipe(descriptor)
        onboard_install_crash_restore()
    }
}
