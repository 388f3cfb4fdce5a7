/// The escape sequences terminals send for keys — xterm and everything that copies it
/// (tmux, screen, GNOME Terminal, iTerm2, PuTTY), VT220, rxvt and the Linux console —
/// read from keys as the terminal library delivered them: Esc, then characters.
/// The terminfo entry in use often lists only some of them (`ESC [ 1 ~` is Home inside
/// tmux with TERM=xterm-256color), so this table does not depend on TERM.
enum EscapeSequence {
    enum Meaning: Equatable {
        case key(Key)
        case pasteStart
        case pasteEnd
        /// A complete sequence that means nothing here (a mouse report, focus, a reply):
        /// dropped whole.
        case ignored
    }

    enum Parse: Equatable {
        /// The keys from the Esc on are not a sequence (Esc alone, or Alt with a key).
        case none
        /// A sequence of `length` keys, Esc included.
        case sequence(length: Int, Meaning)
        /// A sequence cut off at the end of what was read: wait for the rest.
        case incomplete
    }

    /// Longest sequence read; anything longer is garbage and is dropped.
    static let maximumLength = 32
    /// Longest string a terminal's reply carries (a colour, a version, a title).
    static let maximumStringLength = 1024

    /// Reads a sequence starting at `keys[start]`, which is Esc.
    static func parse(_ keys: [Key], from start: Int) -> Parse {
        guard start + 1 < keys.count else { return .none }
        switch keys[start + 1] {
        case .character("["): return parseCSI(keys, from: start)
        case .character("O"): return parseSS3(keys, from: start)
        // OSC, DCS, APC, PM and SOS: a terminal's replies (a colour, its version), read to
        // their terminator and dropped. Alone at the end of a read it is Alt with the key.
        case .character("]"), .character("P"), .character("_"), .character("^"), .character("X"):
            guard start + 2 < keys.count else { return .none }
            return parseString(keys, from: start)
        default: return .none
        }
    }

    /// `ESC ] … BEL` or `ESC ] … ESC \` (ST), whatever is between; one longer than any
    /// reply is dropped as far as it was read.
    private static func parseString(_ keys: [Key], from start: Int) -> Parse {
        var index = start + 2
        while index < keys.count {
            if index - start > maximumStringLength { return .sequence(length: index - start, .ignored) }
            switch keys[index] {
            case .control("g"):
                return .sequence(length: index + 1 - start, .ignored)
            case .escape:
                guard index + 1 < keys.count else { return .incomplete }
                // ST ends it; any other Esc starts what comes next.
                return keys[index + 1] == .character("\\")
                    ? .sequence(length: index + 2 - start, .ignored) : .sequence(length: index - start, .ignored)
            default:
                index += 1
            }
        }
        return .incomplete
    }

    /// `ESC [ params intermediates final`, with the Linux console's `ESC [ [ A`–`E` and
    /// rxvt's `$ ^ @` endings for Shift, Ctrl and Ctrl-Shift.
    private static func parseCSI(_ keys: [Key], from start: Int) -> Parse {
        var index = start + 2
        var parameters = ""
        if index < keys.count, keys[index] == .character("[") {
            // Linux console F1-F5.
            guard index + 1 < keys.count else { return .incomplete }
            guard let final = scalar(keys[index + 1]) else { return .sequence(length: index + 1 - start, .ignored) }
            let number = Int(final.value) - 0x40
            return .sequence(length: index + 2 - start, (1...5).contains(number) ? .key(.function(number)) : .ignored)
        }
        if index < keys.count, keys[index] == .character("M") {
            // X10 mouse report: `ESC [ M` then three bytes of button and place, any value.
            guard index + 3 < keys.count else { return .incomplete }
            return .sequence(length: index + 4 - start, .ignored)
        }
        while index < keys.count {
            guard let read = scalar(keys[index]), index - start < maximumLength else {
                // Not a sequence byte: what came so far was a broken sequence; drop it and
                // let this key be read on its own.
                return .sequence(length: index - start, .ignored)
            }
            let value = read.value
            let character = Character(read)
            switch value {
            case 0x24 where !parameters.isEmpty && parameters.allSatisfy(\.isASCIIDigit),
                0x40...0x7E:
                return .sequence(length: index + 1 - start, csiMeaning(parameters, final: character))
            case 0x20...0x3F:
                parameters.append(character)
                index += 1
            default:
                return .sequence(length: index - start, .ignored)
            }
        }
        return .incomplete
    }

    /// `ESC O final`, with an optional modifier digit before the final (`ESC O 5 D`).
    private static func parseSS3(_ keys: [Key], from start: Int) -> Parse {
        var index = start + 2
        var parameters = ""
        while index < keys.count {
            guard let read = scalar(keys[index]) else { return .sequence(length: index - start, .ignored) }
            let character = Character(read)
            if character.isASCIIDigit || character == ";", parameters.count < 4 {
                parameters.append(character)
                index += 1
                continue
            }
            let modifiers = Key.Modifiers(xtermParameter: Int(parameters.split(separator: ";").last ?? "") ?? 1)
            let meaning: Meaning = ss3Key(character).map { .key(Key.with($0, modifiers)) } ?? .ignored
            return .sequence(length: index + 1 - start, meaning)
        }
        return .incomplete
    }

    private static func csiMeaning(_ parameters: String, final: Character) -> Meaning {
        // Private markers (`<` mouse, `?` and `>` replies) never mean a key.
        if let first = parameters.first, "<=>?".contains(first) { return .ignored }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 }
        let second = numbers.count > 1 ? numbers[1] : nil
        switch final {
        case "~", "$", "^", "@":
            guard let number = first else { return .ignored }
            if number == 200 { return .pasteStart }
            if number == 201 { return .pasteEnd }
            if number == 27, numbers.count == 3, let code = numbers[2] {
                // xterm's modifyOtherKeys: CSI 27 ; modifier ; code ~
                return codeKey(code).map { .key(Key.with($0, Key.Modifiers(xtermParameter: second ?? 1))) } ?? .ignored
            }
            guard let key = tildeKey(number) else { return .ignored }
            let modifiers: Key.Modifiers =
                switch final {
                case "$": .shift
                case "^": .control
                case "@": [.control, .shift]
                default: Key.Modifiers(xtermParameter: second ?? 1)
                }
            return .key(Key.with(key, modifiers))
        case "u":
            // The fixterms / kitty form: CSI code ; modifier u
            guard let code = first, let key = codeKey(code) else { return .ignored }
            return .key(Key.with(key, Key.Modifiers(xtermParameter: second ?? 1)))
        case "a", "b", "c", "d":
            // rxvt: Shift with an arrow.
            guard parameters.isEmpty, let key = ss3Key(Character(final.uppercased())) else { return .ignored }
            return .key(Key.with(key, .shift))
        case "Z":
            return .key(.backTab)
        default:
            guard let key = letterKey(final) else { return .ignored }
            // `CSI 1 ; 5 D`; a lone number is a modifier too on some terminals (`CSI 5 D`).
            let modifier = second ?? (numbers.count == 1 ? first : nil) ?? 1
            return .key(Key.with(key, Key.Modifiers(xtermParameter: modifier)))
        }
    }

    /// VT220 numbered keys: `ESC [ n ~`.
    private static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23, 24: .function(number - 12)
        case 25, 26: .function(number - 12)
        case 28, 29: .function(number - 13)
        case 31...34: .function(number - 14)
        default: nil
        }
    }

    /// Final letters of CSI keys: arrows, Home/End, keypad centre, F1-F4.
    private static func letterKey(_ final: Character) -> Key? {
        switch final {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "H": .home
        case "F": .end
        case "P": .function(1)
        case "Q": .function(2)
        case "R": .function(3)
        case "S": .function(4)
        default: nil
        }
    }

    /// SS3 keys: application-mode arrows, Home/End, F1-F4, rxvt's Ctrl-arrows and the
    /// numeric keypad in application mode (`ESC O p` is 0).
    private static func ss3Key(_ final: Character) -> Key? {
        switch final {
        case "a": return .modified(.up, .control)
        case "b": return .modified(.down, .control)
        case "c": return .modified(.right, .control)
        case "d": return .modified(.left, .control)
        case "M": return .enter
        case "X": return .character("=")
        default:
            if let key = letterKey(final) { return key }
            return keypad[final].map(Key.character)
        }
    }

    /// The numeric keypad in application mode: `ESC O p` is 0.
    private static let keypad: [Character: Character] = [
        "j": "*", "k": "+", "l": ",", "m": "-", "n": ".", "o": "/",
        "p": "0", "q": "1", "r": "2", "s": "3", "t": "4", "u": "5", "v": "6", "w": "7", "x": "8", "y": "9",
    ]

    /// A key from its code point, as modifyOtherKeys and the `u` form send it. kitty's
    /// functional keys live in the private use area: its keypad is what it types, the
    /// rest (media, lock keys) are not keys here; no private-use character is ever typed.
    private static func codeKey(_ code: Int) -> Key? {
        switch code {
        case 9: return .tab
        case 13, 57414: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 57399...57408: return .character(Character(String(code - 57399)))
        case 57409: return .character(".")
        case 57410: return .character("/")
        case 57411: return .character("*")
        case 57412: return .character("-")
        case 57413: return .character("+")
        case 57415: return .character("=")
        case 0xE000...0xF8FF: return nil
        default:
            guard code >= 32, let scalar = UnicodeScalar(UInt32(code)) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// The byte a key stands for in a sequence: printable ASCII only.
    private static func scalar(_ key: Key) -> UnicodeScalar? {
        guard case .character(let character) = key, let scalar = character.unicodeScalars.first,
            character.unicodeScalars.count == 1, (0x20...0x7E).contains(scalar.value)
        else { return nil }
        return scalar
    }
}
