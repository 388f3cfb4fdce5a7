/// A key as the terminal sends it, before the key map gives it a meaning.
public enum Key: Equatable, Sendable, Hashable {
    case character(Character)
    case enter, tab, backTab, up, down, left, right
    case backspace, delete, insert, escape, home, end, pageUp, pageDown
    /// Ctrl plus a letter, lowercased: `.control("c")`.
    case control(Character)
    case function(Int)
    /// A key held with Shift, Alt or Ctrl: `ESC [ 1 ; 5 D` is Ctrl-Left, `ESC b` Alt-B.
    indirect case modified(Key, Modifiers)

    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1)
        /// Alt, Meta or Option: terminals send them the same way.
        public static let alt = Modifiers(rawValue: 2)
        public static let control = Modifiers(rawValue: 4)

        /// From xterm's modifier parameter (`1 + shift + 2·alt + 4·ctrl + 8·meta`).
        public init(xtermParameter value: Int) {
            let bits = max(0, value - 1)
            var modifiers: Modifiers = []
            if bits & 1 != 0 { modifiers.insert(.shift) }
            if bits & 2 != 0 || bits & 8 != 0 { modifiers.insert(.alt) }
            if bits & 4 != 0 { modifiers.insert(.control) }
            self = modifiers
        }
    }

    /// `key` with `modifiers`, or `key` itself when there are none.
    public static func with(_ key: Key, _ modifiers: Modifiers) -> Key {
        guard !modifiers.isEmpty else { return key }
        if case .modified(let inner, let more) = key { return .modified(inner, more.union(modifiers)) }
        if key == .tab, modifiers == .shift { return .backTab }
        // Ctrl with a letter is the control character it always was (`CSI 97 ; 5 u`).
        if case .character(let letter) = key, modifiers.contains(.control), letter.isASCII, letter.isLetter {
            return with(.control(Character(letter.lowercased())), modifiers.subtracting([.control, .shift]))
        }
        return .modified(key, modifiers)
    }
}
