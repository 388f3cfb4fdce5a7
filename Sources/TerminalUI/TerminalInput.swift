/// What a person did at the terminal, as every front end reads it: a key, a bracketed
/// paste (text for the focused field, never keys), or the window resized. `KeyDecoder`
/// makes the first two from what the terminal library read; the terminal adds resizes.
public enum TerminalInput: Equatable, Sendable {
    case key(Key)
    case paste(String)
    case resize
}
